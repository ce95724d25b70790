/*
 * vcsim.c - start and stop the vCenter simulator fixture: it prints
 * "URL THUMBPRINT" on its first line and serves until its stdin closes.
 * The password it accepts is "secret", passed in its environment. And
 * what tests ask of it: the environment a lab would set for it, its call
 * counts, a VM's disks and power as the server says.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <sys/stat.h>
#include <unistd.h>

#include <curl/curl.h>

#include "it.h"
#include "vs_int.h"

int vcsim_start(struct vcsim *v, const char *const *flags)
{
	int in[2], out[2];
	char *argv[16], line[512];
	FILE *fp;
	int n = 0;

	static unsigned seq;

	memset(v, 0, sizeof(*v));
	v->pid = -1;
	/* a test's forked parts each start their own: the pid tells them
	 * apart */
	snprintf(v->tmp, sizeof(v->tmp), "%s/vcsim-%ld-%u", it_dir(),
		 (long)getpid(), seq++);
	if (mkdir(v->tmp, 0700) || pipe2(in, O_CLOEXEC) ||
	    pipe2(out, O_CLOEXEC))
		return -1;
	argv[n++] = (char *)it_bin("vcsim");
	while (flags && *flags && n < 15)
		argv[n++] = (char *)*flags++;
	argv[n] = NULL;
	v->pid = fork();
	if (v->pid == 0) {
		char log[600];
		int fd;

		/* its log (TLS handshake noise included) goes to a file */
		snprintf(log, sizeof(log), "%s/vcsim.log", it_dir());
		fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0600);
		if (fd >= 0)
			dup2(fd, 2);
		dup2(in[0], 0);
		dup2(out[1], 1);
		close(in[1]);
		close(out[0]);
		setenv("TMPDIR", v->tmp, 1);
		setenv("VCSIM_USERNAME", "user", 1);
		setenv("VCSIM_PASSWORD", "secret", 1);
		execv(argv[0], argv);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	v->in_fd = in[1];
	fp = fdopen(out[0], "r");
	if (!fp || !fgets(line, sizeof(line), fp) ||
	    sscanf(line, "%255s %127s", v->url, v->thumbprint) != 2) {
		if (fp)
			fclose(fp);
		vcsim_stop(v);
		return -1;
	}
	fclose(fp);
	return 0;
}

void vcsim_stop(struct vcsim *v)
{
	int st;

	if (v->pid <= 0)
		return;
	close(v->in_fd);
	/* it exits when stdin closes; a hung one is killed */
	for (int i = 0; i < 200; i++) {
		if (waitpid(v->pid, &st, WNOHANG) == v->pid) {
			v->pid = -1;
			return;
		}
		usleep(10000);
	}
	kill(v->pid, SIGKILL);
	waitpid(v->pid, &st, 0);
	v->pid = -1;
}

/* The environment a lab would set, pointed at this simulator: no
 * transfer-host override (the client finds its way as with a real
 * server), the server pinned. */
void it_vcsim_env(struct it_env *e, const struct vcsim *v, const char *state)
{
	e->n = 0;
	it_env_add(e, "PROVBENCH_URL", v->url);
	it_env_add(e, "PROVBENCH_THUMBPRINT", v->thumbprint);
	it_env_add(e, "PROVBENCH_USERNAME", "user");
	it_env_add(e, "PROVBENCH_PASSWORD", "secret");
	it_env_add(e, "PROVBENCH_GUEST_USERNAME", "bench");
	it_env_add(e, "PROVBENCH_GUEST_PASSWORD", "guestpw");
	it_env_add(e, "PROVBENCH_STATE_DIR", state);
	it_env_add(e, "PROVBENCH_RUNNER", it_bin("provbench-runner-static"));
	it_env_add(e, "PATH", "/usr/bin:/bin");
}

static size_t to_buf(char *p, size_t size, size_t n, void *arg)
{
	pb_buf_add(arg, p, size * n);
	return size * n;
}

json_t *it_vcsim_get(const struct vcsim *v, const char *path)
{
	struct pb_buf b = PB_BUF_INIT(1 << 20);
	char url[400];
	CURL *h = curl_easy_init();
	json_t *j = NULL;

	snprintf(url, sizeof(url), "%.*s%s",
		 (int)(strstr(v->url, "/sdk") - v->url), v->url, path);
	curl_easy_setopt(h, CURLOPT_URL, url);
	curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 0L);
	curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 0L);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, to_buf);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, &b);
	if (curl_easy_perform(h) == CURLE_OK && b.data)
		j = json_loads(b.data, 0, NULL);
	curl_easy_cleanup(h);
	pb_buf_dispose(&b);
	return j;
}

long it_soap_calls(const struct vcsim *v, const char *op)
{
	json_t *j = it_vcsim_get(v, "/provbench-stats");
	long n = j ? (long)(op ? json_integer_value(json_object_get(
					 json_object_get(j, "ops"), op))
			       : json_integer_value(
					 json_object_get(j, "soap_calls")))
		   : -1;

	json_decref(j);
	return n;
}

/* A session of the test's own, to ask the server what it has. */
static struct vs_session *session(const struct vcsim *v)
{
	struct vs_config c = VS_CONFIG_INIT;
	struct vs_session *s = NULL;
	char tp[80], err[PB_ERRBUF_SIZE] = "";

	c.url = (char *)v->url;
	c.username = (char *)"user";
	c.password = (char *)"secret";
	vs_thumbprint_normalize(tp, sizeof(tp), v->thumbprint, err);
	c.thumbprint = tp;
	return vs_session_open(&s, &c, NULL, NULL, err) ? NULL : s;
}

char *it_vm_disk_keys(const struct vcsim *v, const char *name)
{
	struct vs_session *s = session(v);
	struct vs_vm_info vm;
	struct vs_disk *d = NULL;
	struct pb_buf out = PB_BUF_INIT(4096);
	size_t n = 0, i;

	if (!s || vs_vm_find(s, &vm, name) || vs_disk_list(s, &vm.ref, &d, &n))
		pb_buf_addstr(&out, "error");
	for (i = 0; i < n; i++)
		pb_buf_printf(&out, "%d:%s;", d[i].key, d[i].file);
	free(d);
	vs_session_free(s);
	return pb_buf_steal(&out, NULL);
}

void it_vm_power(const struct vcsim *v, const char *name, char *power,
		 char *tools)
{
	struct vs_session *s = session(v);
	struct vs_vm_info vm;
	struct vs_vm_state st;

	strcpy(power, "error");
	strcpy(tools, "error");
	if (s && !vs_vm_find(s, &vm, name) &&
	    !vs_vm_state_get(s, &vm.ref, &st)) {
		snprintf(power, 24, "%s", st.power_state);
		snprintf(tools, 32, "%s", st.tools);
	}
	vs_session_free(s);
}
