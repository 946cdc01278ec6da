//! Parse tests for template specializations, qualified names with template arguments,
//! `typename`, and `using` (see the grammar decisions in `parser/mod.rs`).

use hlslc_frontend::ast::*;
use hlslc_frontend::ast_dump::dump;
mod common;
use common::parse_ok;


fn template_decl(d: &Decl) -> &TemplateDecl {
    match d {
        Decl::Template(t) => t,
        other => panic!("not a template: {other:?}"),
    }
}

#[test]
fn specialization_heads_keep_their_arguments() {
    let tu = parse_ok(
        "template<typename T> struct Tr { };
         template<> struct Tr<half> { };
         template<typename T> struct Tr<vector<T, 2> > { };
         template<typename T> T f(T x) { return x; }
         template<> float f<float>(float x) { return x; }",
    );
    let Decl::Struct(s) = &*template_decl(&tu.decls[1]).decl else { panic!() };
    assert_eq!(s.template_args.as_ref().map(Vec::len), Some(1));
    let t = template_decl(&tu.decls[2]);
    let Decl::Struct(s) = &*t.decl else { panic!() };
    assert_eq!((t.params.len(), s.template_args.as_ref().map(Vec::len)), (1, Some(1)));
    let Decl::Func(f) = &*template_decl(&tu.decls[4]).decl else { panic!() };
    assert_eq!((f.name.name.as_str(), f.template_args.as_ref().map(Vec::len)), ("f", Some(1)));
    // An elaborated type with arguments is still a type, not a definition.
    let tu = parse_ok("template<typename T> struct Tr { }; struct Tr<int> t;");
    assert!(matches!(tu.decls[1], Decl::Var(_)));
}

#[test]
fn members_of_template_instances() {
    let d = dump(&parse_ok(
        "template<int N> struct F { };
         int main() { return F<3>::value + F<F<2>::value >::value; }
         typename F<1>::Inner g;",
    ));
    assert!(d.contains("Name F<3>::value"), "{d}");
    assert!(d.contains("Name F<F<2>::value>::value"), "{d}");
    assert!(d.contains("F<1>::Inner"), "{d}");
}

#[test]
fn typename_and_unnamed_template_parameters() {
    let tu = parse_ok(
        "template<class, class B> struct P { };
         template<typename A> typename A::T get(typename A::T x, A a) { return x; }",
    );
    let t = template_decl(&tu.decls[0]);
    let names: Vec<&str> = t
        .params
        .iter()
        .map(|p| match p {
            TemplateParam::Type { name, .. } | TemplateParam::Value { name, .. } => name.name.as_str(),
        })
        .collect();
    assert_eq!(names[1], "B");
    assert!(names[0] != "B" && !names[0].is_empty(), "{names:?}");
    let Decl::Func(f) = &*template_decl(&tu.decls[1]).decl else { panic!() };
    let TypeKind::Named { path, .. } = &f.params[0].ty.kind else { panic!() };
    assert_eq!(path.joined(), "A::T");
}

#[test]
fn using_directives_and_declarations() {
    let tu = parse_ok(
        "namespace n { typedef float F; float g() { return 1; } }
         using namespace n;
         using n::F;
         using n::g;
         void main() { using namespace n; }",
    );
    let usings: Vec<(String, bool)> = tu
        .decls
        .iter()
        .filter_map(|d| match d {
            Decl::Using { path, namespace, .. } => Some((path.joined(), *namespace)),
            _ => None,
        })
        .collect();
    assert_eq!(usings, vec![("n".into(), true), ("n::F".into(), false), ("n::g".into(), false)]);
}
