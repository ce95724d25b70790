/*
 * test_install.c - provbench as a lab gets it: `make install` under a
 * PREFIX other than the first build's, the installed binary run from
 * another directory with a bare environment, what install ships (profiles,
 * systemd units, man page, bash completion, LICENSE), and the state
 * directory on a fresh account's first run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "it.h"
#include "unit.h"

#define PREFIX "/opt/pb"

/* A qemu profile that checks without booting anything (no KVM probe). */
#define PROFILE_TCG                                                            \
	"{\"name\": \"inst\", \"backend\": \"qemu\", \"disk_size\": "          \
	"\"16M\",\n"                                                           \
	" \"modes\": [\"eager\", \"thin\"], \"qemu\": {\"accel\": \"tcg\"},\n" \
	" \"workload\": {\"bs\": \"64K\"}}\n"

/* The plain build's directory (the ASan pass installs the same tree). */
static void plain_dir(char *out, size_t len)
{
	const char *p = it_plain_bin("provbench");
	const char *sl = strrchr(p, '/');

	snprintf(out, len, "%.*s", sl ? (int)(sl - p) : 1, sl ? p : ".");
}

/* make install DESTDIR=scratch/dest PREFIX=/opt/pb; false to skip */
static bool installed(char *dest, size_t len)
{
	char b[512], guest[600];

	plain_dir(b, sizeof(b));
	snprintf(guest, sizeof(guest), "%s/guest/vmlinuz", b);
	if (access(guest, R_OK))
		return false;
	snprintf(dest, len, "%s/dest", it_dir());
	it_sh("rm -rf '%s'", dest);
	CU_ASSERT_EQUAL_FATAL(it_sh("env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS "
				    "make -s B='%s' install DESTDIR='%s' "
				    "PREFIX=" PREFIX " >/dev/null",
				    b, dest),
			      0);
	return true;
}

/* argv run in / with exactly PATH, HOME and the state directory */
static int run_bare(struct it_result *r, char *const argv[])
{
	SCRATCH(home, "home-bare");
	SCRATCH(state, "state-bare");
	char h[700], s[700];
	char *envp[] = {"PATH=/usr/bin:/bin", h, s, NULL};
	char cwd[1024];
	int rc;

	snprintf(h, sizeof(h), "HOME=%s", home);
	snprintf(s, sizeof(s), "PROVBENCH_STATE_DIR=%s", state);
	it_sh("mkdir -p '%s'", home);
	CU_ASSERT_PTR_NOT_NULL_FATAL(getcwd(cwd, sizeof(cwd)));
	CU_ASSERT_EQUAL_FATAL(chdir("/"), 0);
	rc = it_run_env(r, argv, envp, 0, 0);
	CU_ASSERT_EQUAL_FATAL(chdir(cwd), 0);
	return rc;
}

/*
 * Installed under a PREFIX the build never saw, run from / with a bare
 * environment: it finds its own guest image and static runner beside it,
 * and says to reinstall (not `make guest`) when one is gone.
 */
static void installed_runs_elsewhere(void)
{
	char dest[600], bin[700], lib[700], prof[700], want[800];
	struct it_result r;

	if (!installed(dest, sizeof(dest)))
		PB_SKIP("no guest image built (make guest)");
	snprintf(bin, sizeof(bin), "%s" PREFIX "/bin/provbench", dest);
	snprintf(lib, sizeof(lib), "%s" PREFIX "/lib/provbench", dest);
	{
		char *argv[] = {bin, "--version", NULL};

		CU_ASSERT_EQUAL(run_bare(&r, argv), 0);
		snprintf(want, sizeof(want), "guest image: %s/guest\n", lib);
		CU_ASSERT_PTR_NOT_NULL(strstr(r.out, want));
		snprintf(want, sizeof(want),
			 "static runner: %s/provbench-runner-static\n", lib);
		CU_ASSERT_PTR_NOT_NULL(strstr(r.out, want));
		CU_ASSERT_PTR_NULL(strstr(r.out, "missing"));
		if (!strstr(r.out, want))
			fprintf(stderr, "\n%s", r.out);
		it_result_dispose(&r);
	}
	snprintf(prof, sizeof(prof), "%s/inst.json", it_dir());
	it_write_file(prof, PROFILE_TCG);
	{
		char *argv[] = {bin, "check", prof, NULL, NULL};

		CU_ASSERT_EQUAL(run_bare(&r, argv), 0);
		CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "check: ok"));
		if (r.status)
			fprintf(stderr, "\n%s%s", r.out, r.err);
		it_result_dispose(&r);
		/* the shipped profile loads too */
		snprintf(want, sizeof(want),
			 "%s" PREFIX "/share/provbench/profiles/demo.json",
			 dest);
		argv[1] = "run";
		argv[2] = "--dry-run";
		argv[3] = want;
		argv[4] = NULL;
		run_bare(&r, argv);
		CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "plan: 4 mode(s)"));
		it_result_dispose(&r);
	}
	/* an installed tree's hint is to reinstall */
	CU_ASSERT_EQUAL(it_sh("rm -rf '%s/guest'", lib), 0);
	{
		char *argv[] = {bin, "check", prof, NULL};

		CU_ASSERT_EQUAL(run_bare(&r, argv), 2);
		snprintf(want, sizeof(want), "no guest image in %s/guest", lib);
		CU_ASSERT_PTR_NOT_NULL(strstr(r.err, want));
		CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "reinstall provbench"));
		if (!strstr(r.err, "reinstall provbench"))
			fprintf(stderr, "\n%s%s", r.out, r.err);
		CU_ASSERT_PTR_NULL(strstr(r.err, "make guest"));
		it_result_dispose(&r);
	}
	it_sh("rm -rf '%s'", dest);
}

/*
 * README is the door (issue 38): at most 300 lines, and neither it nor a
 * page of docs/ names a path outside the repository (a user's clone has
 * nothing beside it). Its first screen gives both of a newcomer's
 * commands, `make demo` and `make test` (issue 56), the second being
 * what CI runs.
 */
static void readme_is_a_door(void)
{
	/* lines; then any "../" outside a fenced block of README or docs/ */
	CU_ASSERT_EQUAL(it_sh("n=$(wc -l < README.md); test \"$n\" -le 300 || "
			      "{ echo \"README.md: $n lines\" >&2; exit 1; }"),
			0);
	CU_ASSERT_EQUAL(
		it_sh("! awk '/^```/ { f = !f; next } !f && "
		      "/\\.\\.\\// { print FILENAME \":\" FNR \": \" $0; "
		      "bad = 1 } END { exit !bad }' README.md docs/*.md "
		      ">&2"),
		0);
	/* a newcomer's two commands on README's first screen (its first
	 * 40 lines), and CI's script running exactly the second */
	CU_ASSERT_EQUAL(it_sh("head -n 40 README.md | grep -q '^sudo make "
			      "demo' && head -n 40 README.md | grep -q "
			      "'^sudo make test'"),
			0);
	CU_ASSERT_EQUAL(it_sh("grep -v '^#' .ci/run | grep -qx 'make test'"),
			0);
	/* the example backend reads in one sitting: under 150 lines, its
	 * registration included (issue 57, fio's engines/null.c) */
	CU_ASSERT_EQUAL(it_sh("test $(wc -l < harness/backends/null/null.c) "
			      "-lt 150"),
			0);
}

/* help profile, the manual's PROFILE KEYS and docs/profile.md are one
 * walk of the tables that read the keys: the doc is what the binary says
 * now, and the manual has every key the help has */
static void profile_help_one_source(void)
{
	const char *pb = it_bin("provbench");

	CU_ASSERT_EQUAL(it_sh("'%s' help profile --format markdown | diff -u "
			      "docs/profile.md - >&2 || { echo 'docs/"
			      "profile.md is stale: make profile-doc' >&2; "
			      "exit 1; }",
			      pb),
			0);
	CU_ASSERT_EQUAL(
		it_sh("set -e; m=$(mktemp); scripts/man.sh '%s' "
		      "dist/provbench.1.in > $m; n=0; for k in $('%s' help "
		      "profile --format markdown | sed -n 's/^- \\*\\*`\\([^`]*"
		      "\\)`.*/\\1/p'); do n=$((n + 1)); grep -qx \".B $k\" $m "
		      "|| { echo \"manual lacks $k\" >&2; rm -f $m; exit 1; }; "
		      "done; rm -f $m; test $n -gt 60",
		      pb, pb),
		0);
	/* every PROVBENCH_* variable of env.c's table is in help
	 * environment and in the manual's ENVIRONMENT */
	CU_ASSERT_EQUAL(
		it_sh("set -e; m=$(mktemp); scripts/man.sh '%s' "
		      "dist/provbench.1.in > $m; n=0; for v in $(sed -n "
		      "'s/^[[:space:]]*{\"\\(PROVBENCH_[A-Z0-9_]*\\)\".*/\\1/"
		      "p' "
		      "common/env.c); do n=$((n + 1)); grep -qx \".B $v\" $m "
		      "&& '%s' help environment | grep -qE \"^  $v( |$)\" || { "
		      "echo \"$v missing\" >&2; rm -f $m; exit 1; }; done; "
		      "rm -f $m; test $n -gt 20",
		      pb, pb),
		0);
	/* one key alone, in the section that has it */
	CU_ASSERT_EQUAL(it_sh("'%s' help profile stall_s | grep -q "
			      "'^stall_s .*default 60$' ",
			      pb),
			1);
	CU_ASSERT_EQUAL(it_sh("'%s' help profile repetitions | tr '\n' ' ' "
			      "| grep -q '1 to 10000; *default 1 $'",
			      pb),
			0);
}

/* scripts/check-layers, in make check and make test, on a scratch tree
 * with one breach of each rule (a long function, two modules including
 * each other, a new option row type, a PROVBENCH_ name env.c lacks):
 * each said, exit 1; the tree itself passes */
static void layers_check_catches(void)
{
	SCRATCH(tree, "layers");
	char cmd[4096], top[1024];

	CU_ASSERT_PTR_NOT_NULL_FATAL(getcwd(top, sizeof(top)));
	CU_ASSERT_EQUAL(it_sh("scripts/check-layers"), 0);
	snprintf(cmd, sizeof(cmd),
		 "set -e; rm -rf '%s'; mkdir -p '%s/scripts' '%s/x'; cd '%s'; "
		 "git init -q .; printf '#include \"b.h\"\\n' > x/a.c; "
		 "printf '#include \"a.h\"\\n' > x/b.c; touch x/a.h x/b.h; "
		 "{ printf 'int f(void)\\n{\\n'; for i in $(seq 150); do "
		 "printf '\\tx();\\n'; done; printf '}\\n'; } > x/long.c; "
		 "printf 'struct r {\\n\\tconst char *key;\\n\\tenum t "
		 "type;\\n\\tconst char *help;\\n};\\n' > x/r.h; "
		 ": > scripts/layers-allowed; mkdir common; "
		 "printf '{\"PROVBENCH_YES\", \"g\", \"h\"},\\n' > "
		 "common/env.c; printf 'char *a = \"PROVBENCH_YES\", *b = "
		 "\"PROVBENCH_NOPE=%%%%s\";\\n' > x/e.c; git add -A; "
		 "! '%s/scripts/check-layers' 2> out; cat out >&2; "
		 "test $(wc -l < out) -eq 4; "
		 "grep -q 'x/e.c: PROVBENCH_NOPE is no row' out; "
		 "grep -q 'x/long.c:1: f: 153 lines, over 150' out; "
		 "grep -q 'x: a.c and b.c include each other' out; "
		 "grep -q 'struct r is a new option row type' out",
		 tree, tree, tree, tree, top);
	CU_ASSERT_EQUAL(it_sh("%s", cmd), 0);
}

/* What install ships beside the binaries, each usable. */
static void install_ships_docs_and_units(void)
{
	static const char *const files[] = {
		"share/provbench/profiles/demo.json",
		"share/provbench/profiles/vsphere-example.json",
		"lib/systemd/system/provbench@.service",
		"lib/systemd/system/provbench@.timer",
		"lib/sysusers.d/provbench.conf",
		"lib/tmpfiles.d/provbench.conf",
		"share/man/man1/provbench.1",
		"share/bash-completion/completions/provbench",
		"share/doc/provbench/LICENSE",
		"share/doc/provbench/README.md",
		"share/doc/provbench/docs/validation.md",
	};
	char dest[600], out[800];
	struct it_result r;
	size_t i;

	if (!installed(dest, sizeof(dest)))
		PB_SKIP("no guest image built (make guest)");
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(out, sizeof(out), "%s" PREFIX "/%s", dest, files[i]);
		if (access(out, R_OK))
			CU_FAIL(files[i]);
	}
	/* every relative link of the installed README and docs names a
	 * file that was installed */
	CU_ASSERT_EQUAL(
		it_sh("cd '%s" PREFIX
		      "/share/doc/provbench' && bad=0; for f in "
		      "README.md docs/*.md; do d=$(dirname \"$f\"); for l in "
		      "$(grep -o '](\\([^)#:]*\\)[)#]' \"$f\" | sed 's/^](//; "
		      "s/[)#]$//'); do test -e \"$d/$l\" || { echo \"$f: $l\" "
		      ">&2; bad=1; }; done; done; exit $bad",
		      dest),
		0);
	/* the unit names the PREFIX installed into */
	snprintf(out, sizeof(out),
		 "%s" PREFIX "/lib/systemd/system/provbench@.service", dest);
	CU_ASSERT_EQUAL(it_count(out, "ExecStart=" PREFIX "/bin/provbench "
				      "run --yes --quiet"),
			1);
	/* and compares with the night before, failing on a regression */
	CU_ASSERT_EQUAL(it_count(out, "ExecStartPost=" PREFIX "/bin/provbench "
				      "report --quiet --compare previous "
				      "--max-regression 10 "),
			1);
	CU_ASSERT_EQUAL(it_count(out, "@BINDIR@"), 0);
	CU_ASSERT_EQUAL(it_count(out, "User=provbench"), 1);
	CU_ASSERT_EQUAL(it_count(out, "StateDirectory=provbench"), 1);
	/* exit 4 (partial) must fail the unit, for OnFailure= */
	CU_ASSERT_EQUAL(it_count(out, "SuccessExitStatus"), 0);
	/* the man page renders without a warning */
	CU_ASSERT_EQUAL(it_sh("cd '%s" PREFIX "' && MANWIDTH=80 man "
			      "--warnings -l share/man/man1/provbench.1 "
			      "2>&1 >/dev/null | grep -q .",
			      dest),
			1);
	/* the man page's SYNOPSIS has every option every command's --help
	 * has: it is made from them */
	CU_ASSERT_EQUAL(
		it_sh("cd '%s" PREFIX "' && for c in $(bin/provbench --help | "
		      "sed -n '/^commands:/,/^$/s/^  \\([a-z]*\\) .*/\\1/p' | "
		      "grep -v help); do for o in $(bin/provbench $c --help | "
		      "sed -n '1s/^usage: //p' | grep -o '\\[-[-a-z]*' | tr -d "
		      "'['); do grep -q -- \"^.RB \\[ $(echo $o | sed "
		      "'s/-/\\\\\\\\-/g')\" share/man/man1/provbench.1 || { "
		      "echo \"man page lacks $c $o\" >&2; exit 1; }; done; "
		      "done",
		      dest),
		0);
	/* and every command and vsphere subcommand has its line, help's
	 * topics with it */
	CU_ASSERT_EQUAL(
		it_sh("cd '%s" PREFIX "' && m=share/man/man1/provbench.1 && "
		      "grep -qx '.B provbench vsphere thumbprint' $m && grep "
		      "-qx "
		      "'.B provbench vsphere guest run' $m && grep -qx '.B "
		      "provbench help' $m && grep -q '^.RI \\[ "
		      "COMMAND|profile|environment|exit-codes \\]$' $m",
		      dest),
		0);
	/* the manual's EXIT STATUS is help exit-codes' table, each code */
	CU_ASSERT_EQUAL(
		it_sh("cd '%s" PREFIX "' && n=0; for c in $(bin/provbench help "
		      "exit-codes --format markdown | sed -n 's/^- \\*\\*\\("
		      "[^*]*\\)\\*\\*.*/\\1/p'); do n=$((n + 1)); grep -qx "
		      "\".B $c\" share/man/man1/provbench.1 || { echo \"manual "
		      "lacks exit $c\" >&2; exit 1; }; done; test $n -ge 6",
		      dest),
		0);
	/* completion: the options come from the installed binary's help */
	{
		char script[1200];
		char *argv[] = {"/bin/bash", "-c", script, NULL};

		snprintf(
			script, sizeof(script),
			"PATH='%s" PREFIX "/bin':$PATH; . '%s" PREFIX
			"/share/bash-completion/completions/provbench'; "
			"COMP_WORDS=(provbench run --d); COMP_CWORD=2; "
			"_provbench; echo \"${COMPREPLY[*]}\"; "
			"COMP_WORDS=(provbench vsphere disk add --mo); "
			"COMP_CWORD=4; _provbench; echo \"${COMPREPLY[*]}\"; "
			"COMP_WORDS=(provbench exp); COMP_CWORD=1; "
			"_provbench; echo \"${COMPREPLY[*]}\"; "
			"COMP_WORDS=(provbench run --sh); COMP_CWORD=2; "
			"_provbench; echo \"${COMPREPLY[*]}\"; "
			"COMP_WORDS=(provbench vsphere th); COMP_CWORD=2; "
			"_provbench; echo \"${COMPREPLY[*]}\"; "
			"COMP_WORDS=(provbench vsphere guest r); COMP_CWORD=3; "
			"_provbench; echo \"${COMPREPLY[*]}\"; "
			"COMP_WORDS=(provbench help env); COMP_CWORD=2; "
			"_provbench; echo \"${COMPREPLY[*]}\"; "
			"COMP_WORDS=(provbench help exi); COMP_CWORD=2; "
			"_provbench; echo \"${COMPREPLY[*]}\"",
			dest, dest);
		CU_ASSERT_EQUAL(it_run(&r, argv, 0, 0), 0);
		CU_ASSERT_STRING_EQUAL(r.out, "--dry-run\n--mode\nexport\n"
					      "--shard --shard-count\n"
					      "thumbprint\nrun\nenvironment\n"
					      "exit-codes\n");
		it_result_dispose(&r);
	}
	it_sh("rm -rf '%s'", dest);
}

/*
 * The units as systemd reads them: no unknown key, every command there
 * (the installed binary), the timer's calendar valid.
 */
static void systemd_units_verify(void)
{
	char dest[600], dir[700];
	struct it_result r;
	char script[2000];
	char *argv[] = {"/bin/sh", "-c", script, NULL};

	if (it_sh("command -v systemd-analyze >/dev/null"))
		PB_SKIP("no systemd-analyze");
	if (!installed(dest, sizeof(dest)))
		PB_SKIP("no guest image built (make guest)");
	/* verify checks ExecStart exists: point it into DESTDIR */
	snprintf(dir, sizeof(dir), "%s/units", it_dir());
	snprintf(script, sizeof(script),
		 "set -e; rm -rf '%s'; mkdir -p '%s'; cd '%s'; "
		 "sed 's|=" PREFIX "/bin/|=%s" PREFIX "/bin/|' "
		 "'%s" PREFIX "/lib/systemd/system/provbench@.service' "
		 "> provbench@.service; "
		 "cp '%s" PREFIX "/lib/systemd/system/provbench@.timer' .; "
		 "systemd-analyze verify --man=no "
		 "\"$PWD/provbench@lab.service\" "
		 "\"$PWD/provbench@lab.timer\"",
		 dir, dir, dir, dest, dest, dest);
	CU_ASSERT_EQUAL(it_run(&r, argv, 0, 0), 0);
	if (r.status || *r.err)
		fprintf(stderr, "\n%s%s", r.out, r.err);
	CU_ASSERT_STRING_EQUAL(r.err, "");
	it_result_dispose(&r);
	it_sh("rm -rf '%s' '%s'", dir, dest);
}

/* provbench cleanup --dry-run PROFILE with exactly envp: what touches the
 * state directory and nothing else */
static int state_probe(struct it_result *r, char *const envp[],
		       const char *prefix)
{
	SCRATCH(prof, "state-probe.json");
	char script[1600];
	char *argv[] = {"/bin/sh", "-c", script, NULL};

	it_write_file(prof, PROFILE_TCG);
	chmod(prof, 0644);
	snprintf(script, sizeof(script), "%s '%s' cleanup --dry-run '%s'",
		 *prefix ? prefix : "exec", it_bin("provbench"), prof);
	return it_run_env(r, argv, envp, 0, 0);
}

/*
 * A fresh non-root account's first run: no ~/.local at all. The XDG state
 * directory is made (0700, parents too); XDG_STATE_HOME is honoured.
 */
static void state_dir_first_run(void)
{
	SCRATCH(home, "home-nobody");
	SCRATCH(xdg, "xdg-nobody");
	char h[700], x[700], st[800];
	char *envp[] = {"PATH=/usr/bin:/bin", h, NULL, NULL};
	const char *as = "";
	struct it_result r;
	struct stat sb;

	/* as root: become nobody (the scratch directory made passable) */
	if (it_is_root()) {
		chmod(it_dir(), 0711);
		as = "setpriv --reuid=65534 --regid=65534 --clear-groups";
	}
	it_sh("rm -rf '%s' '%s' && mkdir -m 0755 '%s' '%s'", home, xdg, home,
	      xdg);
	if (it_is_root())
		it_sh("chown 65534:65534 '%s' '%s'", home, xdg);
	snprintf(h, sizeof(h), "HOME=%s", home);
	CU_ASSERT_EQUAL(state_probe(&r, envp, as), 0);
	if (r.status)
		fprintf(stderr, "\n%s%s", r.out, r.err);
	it_result_dispose(&r);
	snprintf(st, sizeof(st), "%s/.local/state/provbench", home);
	CU_ASSERT_EQUAL_FATAL(stat(st, &sb), 0);
	CU_ASSERT(S_ISDIR(sb.st_mode) && (sb.st_mode & 0777) == 0700);
	snprintf(st, sizeof(st), "%s/.local/state/provbench/journal.jsonl",
		 home);
	CU_ASSERT_EQUAL(access(st, F_OK), 0);

	snprintf(x, sizeof(x), "XDG_STATE_HOME=%s/state", xdg);
	envp[2] = x;
	CU_ASSERT_EQUAL(state_probe(&r, envp, as), 0);
	it_result_dispose(&r);
	snprintf(st, sizeof(st), "%s/state/provbench/journal.jsonl", xdg);
	CU_ASSERT_EQUAL(access(st, F_OK), 0);
	if (it_is_root())
		chmod(it_dir(), 0700);
}

/* An unusable state directory: exit 2, one line naming it, nothing made. */
static void state_dir_unusable(void)
{
	SCRATCH(file, "state-is-a-file");
	char s[800];
	char *envp[] = {"PATH=/usr/bin:/bin", s, NULL};
	struct it_result r;

	it_write_file(file, "not a directory\n");
	snprintf(s, sizeof(s), "PROVBENCH_STATE_DIR=%s/sub", file);
	CU_ASSERT_EQUAL(state_probe(&r, envp, ""), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "provbench: "));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "state directory "));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, file));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "PROVBENCH_STATE_DIR"));
	CU_ASSERT_EQUAL(strchr(r.err, '\n') - r.err + 1, (long)strlen(r.err));
	if (r.status != 2)
		fprintf(stderr, "\n%s%s", r.out, r.err);
	it_result_dispose(&r);
}

/* make demo installs what the demo needs and not the test toolchain */
static void demo_deps_are_small(void)
{
	static const char *const heavy[] = {"chromium",	       "clang",
					    "golang-go",       "valgrind",
					    "python3-pyvmomi", "fio"};
	static const char *const needed[] = {"qemu-system-x86", "qemu-utils",
					     "busybox-static",	"gcc",
					     "e2fsprogs",	"xfsprogs"};
	struct it_result r;
	char *argv[] = {"/bin/sh", "scripts/deps.sh", "--demo", "--list", NULL};
	char line[64];
	size_t i;

	CU_ASSERT_EQUAL_FATAL(it_run(&r, argv, 0, 0), 0);
	for (i = 0; i < sizeof(heavy) / sizeof(heavy[0]); i++) {
		snprintf(line, sizeof(line), "\n%s\n", heavy[i]);
		if (strstr(r.out, line) ||
		    !strncmp(r.out, line + 1, strlen(line + 1)))
			CU_FAIL(heavy[i]);
	}
	for (i = 0; i < sizeof(needed) / sizeof(needed[0]); i++) {
		snprintf(line, sizeof(line), "%s\n", needed[i]);
		if (!strstr(r.out, line))
			CU_FAIL(needed[i]);
	}
	it_result_dispose(&r);
	/* and make demo asks for that set, not make deps' */
	CU_ASSERT_EQUAL(it_sh("make -n demo 2>/dev/null | grep -q "
			      "'deps.sh --demo'"),
			0);
	/* the full set has the test toolchain */
	argv[2] = "--list";
	argv[3] = NULL;
	CU_ASSERT_EQUAL_FATAL(it_run(&r, argv, 0, 0), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\nchromium\n"));
	it_result_dispose(&r);
}

/*
 * README's systemd recipe, in order, in a scratch root of the installed
 * tree: systemd-sysusers makes the provbench user, systemd-tmpfiles makes
 * /etc/provbench (0750 root:provbench), the profile, settings and
 * password go in as README installs them, and the unit's own user then
 * reads the password file, with no warning, and nobody else can.
 */
static void systemd_recipe_in_scratch_root(void)
{
	char dest[600], root[700], pw[800], script[4000];
	char *argv[] = {"/bin/sh", "-c", script, NULL};
	struct it_result r;

	if (it_sh("command -v systemd-sysusers systemd-tmpfiles setpriv "
		  ">/dev/null"))
		PB_SKIP("no systemd-sysusers, systemd-tmpfiles or setpriv");
	if (!it_is_root())
		PB_SKIP("owners and modes need root");
	if (!installed(dest, sizeof(dest)))
		PB_SKIP("no guest image built (make guest)");
	snprintf(root, sizeof(root), "%s/root", it_dir());
	snprintf(pw, sizeof(pw), "%s/etc/provbench/password", root);
	snprintf(script, sizeof(script),
		 "set -e; rm -rf '%s'; mkdir -p '%s/etc'; cp -a '%s/.' '%s/'; "
		 "cd '%s'; "
		 "systemd-sysusers --root=\"$PWD\" \"$PWD\"" PREFIX
		 "/lib/sysusers.d/provbench.conf; "
		 "systemd-tmpfiles --create --root=\"$PWD\" \"$PWD\"" PREFIX
		 "/lib/tmpfiles.d/provbench.conf; "
		 "u=$(awk -F: '$1 == \"provbench\" { print $3 }' etc/passwd); "
		 "g=$(awk -F: '$1 == \"provbench\" { print $3 }' etc/group); "
		 "test -n \"$u\" && test -n \"$g\"; "
		 "test \"$(stat -c '%%a %%u %%g' etc/provbench)\" = \"750 0 "
		 "$g\"; "
		 /* README's lines; -o/-g by number: the user is this root's */
		 "echo '{}' > lab.json; echo PROVBENCH_URL=x > lab.env; "
		 "echo secret > password; "
		 "cp lab.json etc/provbench/nightly.json; "
		 "install -m 0600 lab.env etc/provbench/nightly.env; "
		 "install -m 0600 -o $u -g $g password etc/provbench/password; "
		 /* the unit's user reads its password, with no warning */
		 "setpriv --reuid=$u --regid=$g --clear-groups env -i "
		 "PATH=/usr/bin:/bin HOME=/nonexistent "
		 "PROVBENCH_STATE_DIR=\"$PWD/state\" "
		 "PROVBENCH_URL=https://127.0.0.1:9/sdk PROVBENCH_USERNAME=u "
		 "PROVBENCH_PASSWORD_FILE=\"$PWD/etc/provbench/password\" "
		 "PROVBENCH_THUMBPRINT=00:11 \"$PWD\"" PREFIX
		 "/bin/provbench vsphere about 2>err || "
		 "true; cat err >&2; "
		 "! grep -q PROVBENCH_PASSWORD_FILE err; grep -q 'provbench: ' "
		 "err; "
		 /* and nobody else can */
		 "! setpriv --reuid=65534 --regid=65534 --clear-groups cat "
		 "etc/provbench/password 2>/dev/null",
		 root, root, dest, root, root);
	(void)pw;
	/* the unit's user must reach its files: the scratch directory is
	 * made 0700 */
	it_sh("chmod 0711 '%s'", it_dir());
	CU_ASSERT_EQUAL(it_run(&r, argv, 0, 0), 0);
	if (r.status)
		fprintf(stderr, "\n%s%s", r.out, r.err);
	it_result_dispose(&r);
	it_sh("rm -rf '%s' '%s'", root, dest);
}

/*
 * sudo make deps-demo in a user's clone: what it makes there (the kernel
 * .deb's directory under build/) is the clone owner's, so their own make
 * demo after it does not fail on a root-owned build/.
 */
static void sudo_deps_leave_the_clone_its_owner(void)
{
	SCRATCH(clone, "clone");
	char b[512];

	if (!it_is_root())
		PB_SKIP("sudo's case needs root");
	plain_dir(b, sizeof(b));
	if (it_sh("ls '%s'/guest/debs/*.deb >/dev/null 2>&1", b))
		PB_SKIP("no kernel .deb fetched (make deps)");
	CU_ASSERT_EQUAL_FATAL(
		it_sh("rm -rf '%s' && mkdir -p '%s' && git ls-files -z | "
		      "xargs -0 cp --parents -t '%s' && chown -R 65534:65534 "
		      "'%s'",
		      clone, clone, clone, clone),
		0);
	/* the .deb already there, as root made it: no download needed */
	CU_ASSERT_EQUAL_FATAL(it_sh("mkdir -p '%s/build/guest/debs' && cp "
				    "'%s'/guest/debs/*.deb '%s/build/guest/"
				    "debs/'",
				    clone, b, clone),
			      0);
	CU_ASSERT_EQUAL(it_sh("cd '%s' && SUDO_UID=65534 env -u MAKEFLAGS -u "
			      "MAKELEVEL -u MFLAGS make -s deps-demo >&2",
			      clone),
			0);
	CU_ASSERT_EQUAL(it_sh("test -z \"$(find '%s' -uid 0 | head -3)\" || "
			      "{ find '%s' -uid 0 | head -3 >&2; false; }",
			      clone, clone),
			0);
	it_sh("rm -rf '%s'", clone);
}

/* make check's tier, its unit job alone, on build directory b: its exit
 * code, its output in out */
static int unit_tier(const char *b, const char *out)
{
	return it_sh("tests/run-all.sh --check --only unit '%s' >'%s' 2>&1", b,
		     out);
}

/*
 * A tier that fails ends with its failed cases: run-all.sh's last lines
 * are each failed case, suite:case, its first assertion and where its own
 * log is kept; make's last words are those lines. Tried on a build
 * directory whose "unit" job is a stand-in that fails one case as CUnit
 * prints it, one that dies without a summary, and one that dies in a
 * case.
 */
static void tier_failure_last_lines(void)
{
	char b[600], out[800];

	snprintf(b, sizeof(b), "%s/fake-build", it_dir());
	snprintf(out, sizeof(out), "%s/tier.out", it_dir());
	CU_ASSERT_EQUAL_FATAL(it_sh("mkdir -p '%s' && printf '%%s\n' "
				    "'#!/bin/sh' 'cat <<EOF' "
				    "'Suite: fake' "
				    "'  Test: passes ...passed' "
				    "'  Test: breaks ...(1.2 s) FAILED' "
				    "'    1. tests/unit/test_fake.c:12  - "
				    "got == 4' "
				    "'  Test: after ...passed' "
				    "'Run Summary: x' "
				    "'provbench-tests: 2 passed, 1 failed, 0 "
				    "skipped' 'EOF' 'exit 1' "
				    ">'%s/unit-tests' && chmod +x "
				    "'%s/unit-tests'",
				    b, b, b),
			      0);
	CU_ASSERT_EQUAL(unit_tier(b, out), 1);
	CU_ASSERT_EQUAL(it_sh("test \"$(tail -n 1 '%s')\" = 'FAILED "
			      "unit:breaks: 1. tests/unit/test_fake.c:12  - "
			      "got == 4 (log: %s/test-logs/unit:breaks.log)'",
			      out, b),
			0);
	/* the case's own log: from its start to the next case's */
	CU_ASSERT_EQUAL(it_sh("grep -q 'Test: breaks' "
			      "'%s/test-logs/unit:breaks.log' && ! grep -q "
			      "'Test: after' '%s/test-logs/unit:breaks.log'",
			      b, b),
			0);
	/* make's last word: the same line, after "*** " */
	CU_ASSERT_EQUAL(it_sh("env -u MAKEFLAGS -u MAKELEVEL make -s "
			      "--no-print-directory B='%s' "
			      "tier-verdict >'%s' 2>&1; test $? = 2 && tail "
			      "-n 1 '%s' | grep -q 'FAILED unit:breaks: 1. "
			      "tests/unit/test_fake.c:12  - got == 4 (log: "
			      "'",
			      b, out, out),
			0);
	/* a job that dies without a summary is named with its exit */
	CU_ASSERT_EQUAL_FATAL(it_sh("printf '%%s\n' '#!/bin/sh' 'echo "
				    "Segmentation fault' 'exit 139' "
				    ">'%s/unit-tests'",
				    b),
			      0);
	CU_ASSERT_EQUAL(unit_tier(b, out), 1);
	CU_ASSERT_EQUAL(it_sh("tail -n 1 '%s' | grep -q '^FAILED unit: exit "
			      "139: Segmentation fault (log: '",
			      out),
			0);
	/* a suite that dies in a case (a NULL strcmp'd, an abort) names
	 * that case and the signal, its earlier cases counted */
	CU_ASSERT_EQUAL_FATAL(it_sh("printf '%%s\n' '#!/bin/sh' 'echo "
				    "Suite: fake' 'echo \"  Test: passes "
				    "...passed\"' 'printf \"  Test: dies "
				    "...\"' 'kill -SEGV $$' "
				    ">'%s/unit-tests'",
				    b),
			      0);
	CU_ASSERT_EQUAL(unit_tier(b, out), 1);
	CU_ASSERT_EQUAL(it_sh("tail -n 1 '%s' | grep -q '^FAILED unit:dies: "
			      "the suite died in this case, killed by signal "
			      "11 (SIGSEGV); the cases after it did not run "
			      "(log: ' && grep -q '^1 passed, 1 failed' '%s'",
			      out, out),
			0);
	/* and a tier that passed says nothing more */
	CU_ASSERT_EQUAL(
		it_sh("echo 0 >'%s/test-rc' && env -u MAKEFLAGS make -s "
		      "--no-print-directory B='%s' tier-verdict",
		      b, b),
		0);
}

/*
 * A job whose needs (the targets its lane makes first: run-all.sh's
 * table) cannot be made fails by name with the first thing that went
 * wrong, and is not run: a need left unmade must never show as its
 * cases skipping. Tried with unit-windows on a build directory where its
 * objects cannot be made (win is a file).
 */
static void tier_needs_failure_named(void)
{
	char b[600], out[800];
	int named;

	if (it_sh("command -v wine >/dev/null"))
		PB_SKIP("no wine (make deps): the tier has no unit-windows "
			"job");
	snprintf(b, sizeof(b), "%s/fake-build", it_dir());
	snprintf(out, sizeof(out), "%s/tier.out", it_dir());
	CU_ASSERT_EQUAL_FATAL(it_sh("mkdir -p '%s' && : >'%s/win'", b, b), 0);
	CU_ASSERT_EQUAL(it_sh("tests/run-all.sh --check --only unit-windows "
			      "'%s' >'%s' 2>&1",
			      b, out),
			1);
	named = it_sh("tail -n 1 '%s' | grep -q '^FAILED unit-windows: "
		      "make unit-windows,wine-prefix: exit 2: mkdir: "
		      "cannot create directory .*win.*: Not a "
		      "directory (log: %s/test-logs/unit-windows.log)$'",
		      out, b);
	CU_ASSERT_EQUAL(named, 0);
	CU_ASSERT_EQUAL(it_sh("grep -q '^0 passed, 1 failed, 0 skipped$' '%s' "
			      "&& ! grep -q 'provbench-tests:' '%s'",
			      out, out),
			0);
	/* what the tier said, and the make it quoted, when it was not the
	 * line above (once in a clean clone's tier, 2026-12-06) */
	if (named)
		it_sh("{ echo; tail -n 5 '%s'; echo '-- its make:'; "
		      "head -n 20 '%s/test-logs/unit-windows.log'; } >&2",
		      out, b);
}

static const struct pb_case cases[] = {
	PB_CASE(installed_runs_elsewhere),
	PB_CASE(install_ships_docs_and_units),
	PB_CASE(readme_is_a_door),
	PB_CASE(profile_help_one_source),
	PB_CASE(layers_check_catches),
	PB_CASE(systemd_units_verify),
	PB_CASE(state_dir_first_run),
	PB_CASE(state_dir_unusable),
	PB_CASE(demo_deps_are_small),
	PB_CASE(systemd_recipe_in_scratch_root),
	PB_CASE(sudo_deps_leave_the_clone_its_owner),
	PB_CASE(tier_failure_last_lines),
	PB_CASE(tier_needs_failure_named),
	PB_CASES_END,
};

const struct pb_suite suite_install_it = {"install", NULL, NULL, cases};
