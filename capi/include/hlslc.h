/*
 * hlslc.h: the C API of hlslc, an HLSL compiler (HLSL -> Vulkan SPIR-V and DXIL) with dxc's
 * command-line options. Link with libhlslc_capi (shared: -lhlslc_capi; static: libhlslc_capi.a,
 * plus -lpthread -ldl -lm on Linux).
 *
 * Written by hand; capi/src/lib.rs is the implementation and must agree with it
 * (testsuite/capi/test.c is compiled against both by `cargo test -p hlslc-capi`).
 *
 * Rules:
 *  - Every function may be called from any thread. A result belongs to the caller until
 *    hlslc_result_free. A compiler (session) may be used by several threads at once.
 *  - No function aborts or unwinds into C: a bug in hlslc is reported as HLSLC_INTERNAL_ERROR.
 *  - Compilation runs on a thread with a large stack while the calling thread waits, so the
 *    include callback is called from that thread (one call at a time, never concurrently for one
 *    hlslc_compile). The callback must not unwind or longjmp out.
 *
 * Example:
 *
 *     const char *args[] = { "-T", "ps_6_0", "-E", "main", "-spirv" };
 *     hlslc_result *r = NULL;
 *     int status = hlslc_compile(src, strlen(src), "shader.hlsl", args, 5, NULL, NULL, &r);
 *     if (status == HLSLC_OK) {
 *         size_t n;
 *         const uint8_t *spirv = hlslc_result_output(r, &n);   // n bytes of SPIR-V words
 *     } else {
 *         fputs(hlslc_result_diagnostics(r, NULL), stderr);
 *     }
 *     hlslc_result_free(r);
 */
#ifndef HLSLC_H
#define HLSLC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes. */
#define HLSLC_OK 0               /* compiled; the result holds the output */
#define HLSLC_COMPILE_ERROR 1    /* the shader did not compile: see the diagnostics */
#define HLSLC_INVALID_ARGUMENT 2 /* NULL pointer, text that is not UTF-8, or a refused dxc argument */
#define HLSLC_INTERNAL_ERROR 3   /* a bug in hlslc, caught: the diagnostics hold its message */
#define HLSLC_UNAVAILABLE 4      /* the result has no such product (reflection JSON) */

/* A finished compilation. */
typedef struct hlslc_result hlslc_result;
/* A compilation session: caches include files and whole results (a hot reload recompiles only
 * the shaders whose source or included files changed). */
typedef struct hlslc_compiler hlslc_compiler;

/*
 * Include callback: asked for `name` as written in #include, from the file `includer` (display
 * name), `angled` nonzero for #include <name>. Return nonzero and set *text / *len (bytes, UTF-8
 * or UTF-16 with a byte-order mark) when the file exists, 0 when it does not ("file not found").
 * hlslc copies the text before it calls the callback again or returns, so the text may live in a
 * buffer the callback reuses. The file system is searched first (the includer's folder for
 * "name", then -I folders); the callback is asked for what it does not find.
 */
typedef int (*hlslc_include_fn)(void *user, const char *name, const char *includer, int angled,
                                const char **text, size_t *len);

/*
 * Compiles `len` bytes of HLSL at `source`, named `file` in diagnostics (NULL: "<input>"), with
 * dxc's arguments args[0..nargs] (for example "-T", "cs_6_0", "-E", "main", "-spirv", "-O3",
 * "-D", "X=1"; no input file: the source is given). Options naming output files (-Fo, -Fc, -Fh,
 * -Fe, -Fre, ...) are refused: the outputs are in the result. `include` may be NULL; `user` is
 * passed to it. Whenever `out` is not NULL, *out receives a new result (also on failure, holding
 * the diagnostics), to be freed with hlslc_result_free. Returns the result's status.
 */
int hlslc_compile(const char *source, size_t len, const char *file, const char *const *args,
                  size_t nargs, hlslc_include_fn include, void *user, hlslc_result **out);

/* The status of a result (HLSLC_INVALID_ARGUMENT for NULL). */
int hlslc_result_status(const hlslc_result *result);

/* The output bytes: SPIR-V words (little-endian) or the DXIL container when compiling; text for
 * -P, -ast-dump, -help, -version. Empty when compilation failed. Lives as long as the result.
 * *len receives the size when len is not NULL. */
const uint8_t *hlslc_result_output(const hlslc_result *result, size_t *len);

/* The diagnostics as dxc prints them (file:line:col: error: ..., source line, caret): a
 * NUL-terminated string, empty when there are none. Lives as long as the result. *len (when not
 * NULL) receives its length without the NUL. */
const char *hlslc_result_diagnostics(const hlslc_result *result, size_t *len);

/* The reflection JSON of the compiled shader. Returns HLSLC_OK and sets *json (NUL-terminated,
 * lives as long as the result) and *len; HLSLC_UNAVAILABLE (with *json = NULL, *len = 0) when
 * the compile produced no code. The schema is docs/reflection.md. */
int hlslc_result_reflection_json(const hlslc_result *result, const char **json, size_t *len);

/* Frees a result; NULL is ignored. */
void hlslc_result_free(hlslc_result *result);

/* A new session (NULL only on an internal failure); free it with hlslc_compiler_free. */
hlslc_compiler *hlslc_compiler_new(void);

/* hlslc_compile through a session (compiler may be NULL: no session). The session assumes the
 * include callback gives the same text for the same request until hlslc_compiler_invalidate. */
int hlslc_compiler_compile(const hlslc_compiler *compiler, const char *source, size_t len,
                           const char *file, const char *const *args, size_t nargs,
                           hlslc_include_fn include, void *user, hlslc_result **out);

/* Tells the session that the include file `name` changed: the callback is asked for it again,
 * and cached results that included it are compiled again if its text differs. */
void hlslc_compiler_invalidate(const hlslc_compiler *compiler, const char *name);

/* Frees a session; NULL is ignored. No compile may be using it. */
void hlslc_compiler_free(hlslc_compiler *compiler);

/* The version string, as `hlslc -version` prints it (static). */
const char *hlslc_version(void);

#ifdef __cplusplus
}
#endif

#endif /* HLSLC_H */
