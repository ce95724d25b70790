/*
 * env.c - every PROVBENCH_* environment variable, in one table: what
 * `provbench help environment` and the manual's ENVIRONMENT say, and
 * what scripts/check-layers holds the sources to (a name a source uses
 * and the table lacks fails it). The code reading each stays where the
 * setting is used; this is its one description.
 */
#include <string.h>

#include "common.h"

const struct pb_env_var pb_env_vars[] = {
	/* the vSphere connection */
	{"PROVBENCH_URL", "connection",
	 "the vCenter or ESXi server, https://host/sdk (GOVC_URL too, with "
	 "user:password@ in it)"},
	{"PROVBENCH_USERNAME", "connection",
	 "the login's user (GOVC_USERNAME too)"},
	{"PROVBENCH_PASSWORD_FILE", "connection",
	 "a file holding the password, mode 0600 (warned when others can "
	 "read it): keeps the password out of every process's environment"},
	{"PROVBENCH_PASSWORD", "connection",
	 "the password itself, when there is no file (GOVC_PASSWORD too); "
	 "never said, logged or recorded"},
	{"PROVBENCH_THUMBPRINT", "connection",
	 "the server certificate's SHA-1 or SHA-256, pinned during the "
	 "handshake (colons optional, any case); provbench vsphere "
	 "thumbprint prints it"},
	{"PROVBENCH_CA_FILE", "connection",
	 "CA certificates to trust the server by, a :-separated list "
	 "(GOVC_TLS_CA_CERTS too)"},
	{"PROVBENCH_INSECURE", "connection",
	 "1: the server's certificate unchecked (warned; GOVC_INSECURE too)"},
	{"PROVBENCH_TLS_LEGACY", "connection",
	 "1: TLS 1.0 and 1.1 allowed, for ESXi 5.0 and 5.1 (warned)"},
	{"PROVBENCH_CONNECT_TIMEOUT", "connection",
	 "seconds a connection (TCP and TLS handshakes) may take: default "
	 "15"},
	{"PROVBENCH_REPLY_TIMEOUT", "connection",
	 "seconds a reply may take to start, and a started one to send 1 "
	 "KiB: default 60 (a long poll's own wait added); said at 5 s"},
	{"PROVBENCH_DEBUG_DIR", "connection",
	 "every SOAP request and reply kept there, secrets replaced by ***"},
	/* the test VM's guest */
	{"PROVBENCH_GUEST_USERNAME", "guest",
	 "the test VM's guest login (GOVC_GUEST_LOGIN, user:password, too)"},
	{"PROVBENCH_GUEST_PASSWORD_FILE", "guest",
	 "a file holding its password, mode 0600, as PROVBENCH_PASSWORD_FILE: "
	 "no secret in a recipe's environment"},
	{"PROVBENCH_GUEST_PASSWORD", "guest",
	 "its password itself, when there is no file; never said, logged or "
	 "recorded"},
	{"PROVBENCH_GUEST_TRANSFER_HOST", "guest",
	 "host or host:port for guest file transfers, when the ESXi host's "
	 "name does not resolve from here (the certificate pin holds)"},
	/* where provbench keeps and finds its things */
	{"PROVBENCH_STATE_DIR", "paths",
	 "the journal, locks and the accelerator probe's verdict: default "
	 "/var/lib/provbench for root, $XDG_STATE_HOME/provbench or "
	 "~/.local/state/provbench otherwise"},
	{"PROVBENCH_GUEST_DIR", "paths",
	 "the qemu backend's guest image (kernel, initrd); default the one "
	 "installed beside the binary (../lib/provbench/guest)"},
	{"PROVBENCH_RUNNER", "paths",
	 "the static runner uploaded to a Linux guest; default the one "
	 "installed beside the binary"},
	{"PROVBENCH_RUNNER_WINDOWS", "paths",
	 "the runner uploaded to a Windows guest (provbench-runner.exe)"},
	{"PROVBENCH_KVM_DEVICE", "paths",
	 "another node than /dev/kvm for the accelerator probe (diagnosis)"},
	/* what the shipped profiles name their places by ("env:" values):
	 * a profile may use any name; these are the examples' */
	{"PROVBENCH_VM", "shipped profiles",
	 "the test VM (profiles/vsphere-*.json's vsphere.vm)"},
	{"PROVBENCH_VM2", "shipped profiles",
	 "a second test VM (profiles/vsphere-fleet.json)"},
	{"PROVBENCH_DATASTORE", "shipped profiles",
	 "the datastore new disks go to (vsphere.datastore)"},
	{"PROVBENCH_NFS_DATASTORE", "shipped profiles",
	 "an NFS datastore beside it (profiles/vsphere-fleet.json, "
	 "seed-004)"},
	{"PROVBENCH_LUN", "shipped profiles",
	 "the spare LUN rdm and rdmp map (vsphere.lun); unset, a run "
	 "without rdm needs none"},
	{"PROVBENCH_DIR_A", "shipped profiles",
	 "profiles/two-filesystems.json's first directory (qemu.dir)"},
	{"PROVBENCH_DIR_B", "shipped profiles",
	 "and its second, on another filesystem"},
	/* what a command pass is given (the runner sets them) */
	{"PROVBENCH_MOUNT", "command pass",
	 "set by the runner for a command pass: the mounted filesystem it "
	 "runs in"},
	{"PROVBENCH_DEVICE", "command pass",
	 "set by the runner for a command pass: the device under test"},
	/* the tests' own */
	{"PROVBENCH_STOP_AT", "testing",
	 "a step name: the run stops itself there (SIGSTOP), for the tests "
	 "that kill a run at each step"},
	{NULL, NULL, NULL},
};
