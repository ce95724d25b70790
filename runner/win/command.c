/*
 * win/command.c - command passes on Windows: the profile's command run by
 * cmd.exe (/d: no AutoRun; /s /c: the text after /c as it is), in the
 * filesystem's mount point or the system drive's root on a raw target,
 * timed wall-clock, its exit status and the tail of its output (stdout
 * and stderr in one pipe, as a console shows them) kept. It runs in a job
 * object: an interrupt ends everything it started, as the process group
 * does on Linux. PROVBENCH_MOUNT and PROVBENCH_DEVICE as on Linux.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

#include "runner_int.h"

#define TAIL_BYTES 2048u

static enum pb_error start(PROCESS_INFORMATION *pi, HANDLE *rd, HANDLE job,
			   const char *cmd, const char *cwd, char *errbuf)
{
	SECURITY_ATTRIBUTES sa = {.nLength = sizeof(sa),
				  .bInheritHandle = TRUE};
	STARTUPINFOA si = {.cb = sizeof(si)};
	char shell[MAX_PATH], *line = NULL;
	HANDLE wr = NULL, nul = INVALID_HANDLE_VALUE;
	enum pb_error err = PB_OK;
	size_t n;

	if (!GetSystemDirectoryA(shell, sizeof(shell) - 8))
		snprintf(shell, sizeof(shell), "C:\\Windows\\System32");
	strcat(shell, "\\cmd.exe");
	n = strlen(shell) + strlen(cmd) + 32;
	line = malloc(n);
	if (!line)
		return pb_fail(errbuf, PB_ERR_NOMEM, "out of memory");
	snprintf(line, n, "\"%s\" /d /s /c \"%s\"", shell, cmd);
	if (!CreatePipe(rd, &wr, &sa, 0) ||
	    !SetHandleInformation(*rd, HANDLE_FLAG_INHERIT, 0)) {
		err = pb_fail(errbuf, PB_ERR_CHILD,
			      "command: no pipe (error "
			      "%lu)",
			      GetLastError());
		goto out;
	}
	nul = CreateFileA("NUL", GENERIC_READ, FILE_SHARE_READ, &sa,
			  OPEN_EXISTING, 0, NULL);
	si.dwFlags = STARTF_USESTDHANDLES;
	si.hStdInput = nul;
	si.hStdOutput = wr;
	si.hStdError = wr;
	if (!CreateProcessA(NULL, line, NULL, NULL, TRUE,
			    CREATE_SUSPENDED | CREATE_NO_WINDOW, NULL, cwd, &si,
			    pi)) {
		err = pb_fail(errbuf, PB_ERR_CHILD,
			      "command: cmd.exe did not start (error %lu)",
			      GetLastError());
		goto out;
	}
	/* in the job before it runs a thing, then let it go */
	AssignProcessToJobObject(job, pi->hProcess);
	ResumeThread(pi->hThread);
out:
	if (wr)
		CloseHandle(wr);
	if (nul != INVALID_HANDLE_VALUE)
		CloseHandle(nul);
	free(line);
	return err;
}

enum pb_error runner_command_run(struct runner_pass_result *r, const char *cmd,
				 const char *stop_file, const char *cwd,
				 const char *device)
{
	JOBOBJECT_EXTENDED_LIMIT_INFORMATION lim = {0};
	PROCESS_INFORMATION pi = {0};
	char tail[TAIL_BYTES + 1], chunk[4096], root[8] = "C:\\";
	HANDLE job = NULL, rd = NULL;
	enum pb_error err;
	size_t tlen = 0;
	uint64_t t0;
	bool killed = false;
	DWORD code = 1, avail, got;

	r->exit_status = -1;
	/* a raw target has no mount point: the system drive's root */
	if (!cwd || !strcmp(cwd, "/")) {
		char win[MAX_PATH];

		if (GetSystemWindowsDirectoryA(win, sizeof(win)) &&
		    win[1] == ':')
			root[0] = win[0];
		cwd = root;
	}
	SetEnvironmentVariableA("PROVBENCH_MOUNT", cwd);
	SetEnvironmentVariableA("PROVBENCH_DEVICE", device);
	job = CreateJobObjectA(NULL, NULL);
	if (!job)
		return pb_fail(r->error, PB_ERR_CHILD,
			       "command: no job object");
	/* the runner's end is the commands' end too */
	lim.BasicLimitInformation.LimitFlags =
		JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
	SetInformationJobObject(job, JobObjectExtendedLimitInformation, &lim,
				sizeof(lim));
	t0 = pb_now_ns();
	err = start(&pi, &rd, job, cmd, cwd, r->error);
	if (err)
		goto out;
	for (;;) {
		runner_stop_file_poll(stop_file, pb_now_ns());
		if (runner_stop_requested() && !killed) {
			TerminateJobObject(job, 130);
			killed = true;
		}
		avail = 0;
		if (!PeekNamedPipe(rd, NULL, 0, NULL, &avail, NULL))
			break; /* every writer has gone: it ended */
		if (!avail) {
			if (WaitForSingleObject(pi.hProcess, 100) ==
				    WAIT_OBJECT_0 &&
			    (!PeekNamedPipe(rd, NULL, 0, NULL, &avail, NULL) ||
			     !avail))
				break;
			continue;
		}
		if (!ReadFile(rd, chunk,
			      avail < sizeof(chunk) ? avail : sizeof(chunk),
			      &got, NULL) ||
		    !got)
			break;
		pb_tail_add(tail, &tlen, TAIL_BYTES, chunk, got);
	}
	WaitForSingleObject(pi.hProcess, INFINITE);
	GetExitCodeProcess(pi.hProcess, &code);
	r->exit_status = (int)code;
	r->ns = pb_now_ns() - t0;
	tail[tlen] = '\0';
	free(r->output);
	r->output = strdup(tail);
	if (killed) {
		err = pb_fail(r->error, PB_ERR_INTERRUPTED, "command stopped");
	} else if (r->exit_status) {
		/* the last line of its output says most */
		char *end = tail + tlen, *line;

		while (end > tail && (end[-1] == '\n' || end[-1] == '\r'))
			*--end = '\0';
		line = strrchr(tail, '\n');
		err = pb_fail(r->error, PB_ERR_CHILD, "command exited %d%s%s",
			      r->exit_status, tlen ? ": " : "",
			      line ? line + 1 : tail);
	} else {
		r->complete = true;
	}
out:
	if (pi.hProcess)
		CloseHandle(pi.hProcess);
	if (pi.hThread)
		CloseHandle(pi.hThread);
	if (rd)
		CloseHandle(rd);
	CloseHandle(job);
	return err;
}
