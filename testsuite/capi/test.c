/* The C API from C: compiled with gcc against libhlslc_capi and run by capi/tests/c_program.rs.
 * Prints one line per check; exits nonzero at the first failure. */
#include "hlslc.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

#define CHECK(cond, ...)                                                  \
    do {                                                                  \
        if (!(cond)) {                                                    \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                 \
            fprintf(stderr, "\n");                                        \
            failures++;                                                   \
        }                                                                 \
    } while (0)

static const char *PS = "float4 main(float4 c : COLOR) : SV_Target { return c * 2; }\n";

static int is_spirv(const uint8_t *p, size_t n) {
    /* The SPIR-V magic number 0x07230203, little-endian. */
    return n >= 20 && n % 4 == 0 && p[0] == 0x03 && p[1] == 0x02 && p[2] == 0x23 && p[3] == 0x07;
}

static void spirv_output(void) {
    const char *args[] = {"-T", "ps_6_0", "-E", "main", "-spirv"};
    hlslc_result *r = NULL;
    int status = hlslc_compile(PS, strlen(PS), "ps.hlsl", args, 5, NULL, NULL, &r);
    CHECK(status == HLSLC_OK, "status %d: %s", status, hlslc_result_diagnostics(r, NULL));
    CHECK(hlslc_result_status(r) == status, "status accessor");
    size_t n = 0;
    const uint8_t *out = hlslc_result_output(r, &n);
    CHECK(is_spirv(out, n), "not SPIR-V (%zu bytes)", n);
    size_t dn = 99;
    const char *diags = hlslc_result_diagnostics(r, &dn);
    CHECK(diags != NULL && dn == 0 && diags[0] == 0, "diagnostics for a good shader: %s", diags);
    hlslc_result_free(r);
    printf("ok spirv output: %zu bytes\n", n);
}

static void dxil_output(void) {
    const char *src = "RWBuffer<uint> B; [numthreads(4,1,1)] void main(uint3 id : SV_DispatchThreadID) { B[id.x] = id.x; }";
    const char *args[] = {"-T", "cs_6_0"};
    hlslc_result *r = NULL;
    int status = hlslc_compile(src, strlen(src), "cs.hlsl", args, 2, NULL, NULL, &r);
    size_t n = 0;
    const uint8_t *out = hlslc_result_output(r, &n);
    CHECK(status == HLSLC_OK, "status %d: %s", status, hlslc_result_diagnostics(r, NULL));
    CHECK(n > 32 && memcmp(out, "DXBC", 4) == 0, "not a DXIL container (%zu bytes)", n);
    hlslc_result_free(r);
    printf("ok dxil container: %zu bytes\n", n);
}

static void bad_shader(void) {
    const char *src = "float4 main() : SV_Target {\n  return undefined_name;\n}\n";
    const char *args[] = {"-T", "ps_6_0", "-spirv"};
    hlslc_result *r = NULL;
    int status = hlslc_compile(src, strlen(src), "bad.hlsl", args, 3, NULL, NULL, &r);
    CHECK(status == HLSLC_COMPILE_ERROR, "status %d", status);
    size_t n = 1;
    hlslc_result_output(r, &n);
    CHECK(n == 0, "output of a failed compile: %zu bytes", n);
    const char *d = hlslc_result_diagnostics(r, NULL);
    CHECK(strstr(d, "bad.hlsl:2:10: error:") != NULL, "diagnostic not located: %s", d);
    CHECK(strstr(d, "undefined_name") != NULL, "diagnostic does not name the identifier: %s", d);
    hlslc_result_free(r);
    printf("ok bad shader diagnosed\n");
}

static void bad_arguments(void) {
    hlslc_result *r = NULL;
    const char *profile[] = {"-T", "xs_6_0"};
    int status = hlslc_compile(PS, strlen(PS), "ps.hlsl", profile, 2, NULL, NULL, &r);
    CHECK(status == HLSLC_INVALID_ARGUMENT, "status %d", status);
    CHECK(strstr(hlslc_result_diagnostics(r, NULL), "xs_6_0") != NULL, "%s", hlslc_result_diagnostics(r, NULL));
    hlslc_result_free(r);
    const char *fo[] = {"-T", "ps_6_0", "-Fo", "out.bin"};
    status = hlslc_compile(PS, strlen(PS), "ps.hlsl", fo, 4, NULL, NULL, &r);
    CHECK(status == HLSLC_INVALID_ARGUMENT, "status %d", status);
    CHECK(strstr(hlslc_result_diagnostics(r, NULL), "-Fo") != NULL, "%s", hlslc_result_diagnostics(r, NULL));
    hlslc_result_free(r);
    const char *unknown[] = {"-T", "ps_6_0", "-no-such-option"};
    status = hlslc_compile(PS, strlen(PS), "ps.hlsl", unknown, 3, NULL, NULL, &r);
    CHECK(status == HLSLC_INVALID_ARGUMENT, "status %d", status);
    hlslc_result_free(r);
    CHECK(hlslc_compile(PS, strlen(PS), "ps.hlsl", NULL, 0, NULL, NULL, NULL) == HLSLC_INVALID_ARGUMENT, "NULL out");
    status = hlslc_compile(NULL, 10, "ps.hlsl", NULL, 0, NULL, NULL, &r);
    CHECK(status == HLSLC_INVALID_ARGUMENT, "NULL source: %d", status);
    hlslc_result_free(r);
    CHECK(hlslc_result_status(NULL) == HLSLC_INVALID_ARGUMENT, "NULL result");
    hlslc_result_free(NULL);
    printf("ok bad arguments refused\n");
}

/* An include callback over one in-memory file whose text the test may change. */
struct files {
    int calls;
    const char *common;
};

static int include_cb(void *user, const char *name, const char *includer, int angled, const char **text, size_t *len) {
    struct files *f = user;
    (void)includer;
    (void)angled;
    f->calls++;
    if (strcmp(name, "common.hlsli") != 0)
        return 0;
    *text = f->common;
    *len = strlen(f->common);
    return 1;
}

static const char *USES_INCLUDE = "#include \"common.hlsli\"\nfloat4 main() : SV_Target { return COLOR; }\n";
static const char *SPIRV_ARGS[] = {"-T", "ps_6_0", "-spirv"};

static void include_callback(void) {
    struct files f = {0, "#define COLOR float4(0.25, 0.5, 0.75, 1)\n"};
    hlslc_result *r = NULL;
    int status = hlslc_compile(USES_INCLUDE, strlen(USES_INCLUDE), "inc.hlsl", SPIRV_ARGS, 3, include_cb, &f, &r);
    CHECK(status == HLSLC_OK, "status %d: %s", status, hlslc_result_diagnostics(r, NULL));
    CHECK(f.calls == 1, "callback called %d times", f.calls);
    size_t n = 0;
    const uint8_t *out = hlslc_result_output(r, &n);
    CHECK(is_spirv(out, n), "not SPIR-V");
    hlslc_result_free(r);
    /* The file the callback does not have. */
    const char *missing = "#include \"missing.hlsli\"\n";
    status = hlslc_compile(missing, strlen(missing), "m.hlsl", SPIRV_ARGS, 3, include_cb, &f, &r);
    CHECK(status == HLSLC_COMPILE_ERROR, "status %d", status);
    CHECK(strstr(hlslc_result_diagnostics(r, NULL), "'missing.hlsli' file not found") != NULL, "%s", hlslc_result_diagnostics(r, NULL));
    hlslc_result_free(r);
    printf("ok include callback\n");
}

static void reflection(void) {
    hlslc_result *r = NULL;
    hlslc_compile(PS, strlen(PS), "ps.hlsl", SPIRV_ARGS, 3, NULL, NULL, &r);
    const char *json = "not set";
    size_t n = 99;
    int status = hlslc_result_reflection_json(r, &json, &n);
    CHECK(status == HLSLC_OK && json != NULL && n == strlen(json), "status %d", status);
    CHECK(strstr(json, "\"schema_version\": 1") != NULL, "%s", json);
    CHECK(strstr(json, "\"stage\": \"pixel\"") != NULL, "%s", json);
    CHECK(strstr(json, "COLOR") != NULL, "%s", json);
    hlslc_result_free(r);
    /* A failed compile has none: a clear status, never a dangling pointer. */
    const char *bad = "float4 main() : SV_Target { return nope; }\n";
    hlslc_compile(bad, strlen(bad), "bad.hlsl", SPIRV_ARGS, 3, NULL, NULL, &r);
    json = "not set";
    status = hlslc_result_reflection_json(r, &json, &n);
    CHECK(status == HLSLC_UNAVAILABLE && json == NULL && n == 0, "status %d", status);
    hlslc_result_free(r);
    printf("ok reflection: status %d\n", status);
}

/* A session: the callback is asked once across compiles, again after invalidate; a changed
 * include changes the output, an unchanged one gives the same bytes. */
static void session(void) {
    hlslc_compiler *c = hlslc_compiler_new();
    CHECK(c != NULL, "no compiler");
    struct files f = {0, "#define COLOR float4(0.25, 0.5, 0.75, 1)\n"};
    hlslc_result *a = NULL, *b = NULL, *d = NULL;
    hlslc_compiler_compile(c, USES_INCLUDE, strlen(USES_INCLUDE), "inc.hlsl", SPIRV_ARGS, 3, include_cb, &f, &a);
    hlslc_compiler_compile(c, USES_INCLUDE, strlen(USES_INCLUDE), "inc.hlsl", SPIRV_ARGS, 3, include_cb, &f, &b);
    CHECK(f.calls == 1, "callback called %d times over two compiles", f.calls);
    size_t na, nb, nd;
    const uint8_t *pa = hlslc_result_output(a, &na), *pb = hlslc_result_output(b, &nb);
    CHECK(is_spirv(pa, na) && na == nb && memcmp(pa, pb, na) == 0, "outputs differ");
    f.common = "#define COLOR float4(1, 0, 0, 1)\n";
    hlslc_compiler_invalidate(c, "common.hlsli");
    hlslc_compiler_compile(c, USES_INCLUDE, strlen(USES_INCLUDE), "inc.hlsl", SPIRV_ARGS, 3, include_cb, &f, &d);
    CHECK(f.calls == 2, "callback called %d times after invalidate", f.calls);
    const uint8_t *pd = hlslc_result_output(d, &nd);
    CHECK(is_spirv(pd, nd) && (nd != na || memcmp(pa, pd, na) != 0), "output did not change with the include");
    hlslc_result_free(a);
    hlslc_result_free(b);
    hlslc_result_free(d);
    hlslc_compiler_free(c);
    printf("ok session cache\n");
}

struct job {
    const hlslc_compiler *c;
    int status;
    size_t len;
};

static void *compile_job(void *p) {
    struct job *j = p;
    hlslc_result *r = NULL;
    for (int i = 0; i < 4; i++) {
        j->status = hlslc_compiler_compile(j->c, PS, strlen(PS), "ps.hlsl", SPIRV_ARGS, 3, NULL, NULL, &r);
        hlslc_result_output(r, &j->len);
        hlslc_result_free(r);
    }
    return NULL;
}

static void threads(void) {
    hlslc_compiler *c = hlslc_compiler_new();
    struct job jobs[4];
    pthread_t t[4];
    for (int i = 0; i < 4; i++) {
        jobs[i] = (struct job){c, -1, 0};
        pthread_create(&t[i], NULL, compile_job, &jobs[i]);
    }
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    for (int i = 0; i < 4; i++)
        CHECK(jobs[i].status == HLSLC_OK && jobs[i].len == jobs[0].len && jobs[0].len > 0, "thread %d: %d", i, jobs[i].status);
    hlslc_compiler_free(c);
    printf("ok threads share a session\n");
}

int main(void) {
    printf("%s\n", hlslc_version());
    spirv_output();
    dxil_output();
    bad_shader();
    bad_arguments();
    include_callback();
    reflection();
    session();
    threads();
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    printf("all C API checks passed\n");
    return 0;
}
