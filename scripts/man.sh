#!/bin/sh
# man.sh - the manual page's SYNOPSIS from the commands' own usage lines
# (each command's one option spec prints them), so the page lists every
# option --help does and never drifts from the binary.
#
#   scripts/man.sh PROVBENCH TEMPLATE > provbench.1
#
# TEMPLATE is dist/provbench.1.in; its @SYNOPSIS@ line is replaced, and
# its @PROFILE@ line by every profile key, from the tables that read them
# (provbench help profile --format man), its @EXIT@ line by every exit
# code (help exit-codes), its @ENVIRONMENT@ line by every
# PROVBENCH_* variable, from env.c's table.
set -eu
pb=$1
tmpl=$2

# the commands as a --help lists them: "run", "disk add"
commands() {
	sed -n '/^commands/,/^$/s/^  \([a-z][a-z]*\( [a-z][a-z]*\)\{0,1\}\)  .*/\1/p'
}

synopsis() {
	# every command as provbench --help lists them, and each of
	# vsphere's as its --help does
	"$pb" --help | commands |
		while read -r c; do
			"$pb" "$c" --help | sed -n '1s/^usage: provbench //p'
			[ "$c" = vsphere ] || continue
			"$pb" vsphere --help | commands | while read -r s; do
				# shellcheck disable=SC2086
				"$pb" vsphere $s --help |
					sed -n '1s/^usage: provbench //p'
			done
		done |
		awk '
		function esc(s) { gsub(/-/, "\\-", s); return s }
		{
			# the command: its leading lower-case words
			cmd = $1
			for (i = 2; i <= NF && $i ~ /^[a-z]+$/; i++)
				cmd = cmd " " $i
			rest = substr($0, length(cmd) + 2)
			print ".B provbench " cmd
			while (length(rest)) {
				sub(/^ +/, "", rest)
				if (rest == "")
					break
				if (substr(rest, 1, 1) == "[") {
					end = index(rest, "]")
					inner = substr(rest, 2, end - 2)
					rest = substr(rest, end + 1)
					if (substr(inner, 1, 1) == "-") {
						sp = index(inner, " ")
						if (sp) {
							print ".RB [ " esc(substr(inner, 1, sp - 1))
							print ".IR " substr(inner, sp + 1) " ]"
						} else {
							print ".RB [ " esc(inner) " ]"
						}
					} else {
						more = sub(/\.\.\.$/, "", inner)
						print ".RI [ " inner (more ? " ...]" : " ]")
					}
				} else {
					sp = index(rest, " ")
					word = sp ? substr(rest, 1, sp - 1) : rest
					rest = sp ? substr(rest, sp + 1) : ""
					print ".I " word
				}
			}
			print ".br"
		}'
}

# through the environment: awk -v would read the roff's backslashes as
# escapes of its own
PB_SYN=$(synopsis) PB_KEYS=$("$pb" help profile --format man) \
PB_ENV=$("$pb" help environment --format man) \
PB_EXIT=$("$pb" help exit-codes --format man) awk '
	$0 == "@SYNOPSIS@" { print ENVIRON["PB_SYN"]; next }
	$0 == "@PROFILE@" { print ENVIRON["PB_KEYS"]; next }
	$0 == "@ENVIRONMENT@" { print ENVIRON["PB_ENV"]; next }
	$0 == "@EXIT@" { print ENVIRON["PB_EXIT"]; next }
	{ print }' "$tmpl"
