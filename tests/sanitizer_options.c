/*
 * sanitizer_options.c - linked into the ASan + UBSan builds of provbench
 * and provbench-runner that the integration suite runs a second time: a
 * sanitizer finding exits 99, a code no test expects, so it fails the
 * test that ran it instead of passing for an expected exit 1.
 */
const char *__asan_default_options(void);
const char *__ubsan_default_options(void);

const char *__asan_default_options(void)
{
	return "exitcode=99:detect_leaks=1";
}

const char *__ubsan_default_options(void)
{
	return "exitcode=99:print_stacktrace=1:halt_on_error=1";
}
