// RUN: -T ps_6_0 -E main -ast-dump
// With a sema error, -ast-dump prints only the diagnostics (-ast-dump-parse still dumps).
float4 main() : SV_Target {
    return undeclared;
}
