/*
 * config.c - connection settings from the environment: PROVBENCH_* first,
 * then govc's GOVC_* so a lab set up for govc works unchanged. Never from
 * argv, so passwords stay out of ps(1) and shell history.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vs_int.h"

static const char *first(vs_getenv_fn get, void *arg, const char *a,
			 const char *b)
{
	const char *v = get(a, arg);

	if (v && *v)
		return v;
	v = b ? get(b, arg) : NULL;
	return v && *v ? v : NULL;
}

static enum pb_error dup_into(char **dst, const char *src, size_t n)
{
	free(*dst);
	*dst = strndup(src, n);
	return *dst ? PB_OK : PB_ERR_NOMEM;
}

/* Overwrite then free: a password must not linger in freed memory. */
static void wipe_free(char *p)
{
	if (!p)
		return;
	explicit_bzero(p, strlen(p));
	free(p);
}

/*
 * From here on a password is in memory until the process ends (a session
 * logs in again when it expires), so no core dump may be written and no
 * other process of the user may read this one's memory.
 */
static void no_core_dumps(void)
{
	struct rlimit rl;

	if (!getrlimit(RLIMIT_CORE, &rl) && rl.rlim_cur) {
		rl.rlim_cur = 0;
		setrlimit(RLIMIT_CORE, &rl);
	}
	prctl(PR_SET_DUMPABLE, 0);
}

static bool truthy(const char *v)
{
	return v && (!strcmp(v, "1") || !strcasecmp(v, "true") ||
		     !strcasecmp(v, "yes"));
}

enum pb_error vs_thumbprint_normalize(char *out, size_t len, const char *in,
				      char *errbuf)
{
	size_t n = 0;
	const char *p;

	for (p = in; *p; p++) {
		if (*p == ':' || *p == ' ')
			continue;
		if (!isxdigit((unsigned char)*p))
			return pb_fail(errbuf, PB_ERR_INPUT,
				       "PROVBENCH_THUMBPRINT: '%c' is not a "
				       "hex digit",
				       *p);
		if (n + 1 >= len)
			break;
		out[n++] = (char)tolower((unsigned char)*p);
	}
	out[n] = '\0';
	if (n != 40 && n != 64)
		return pb_fail(errbuf, PB_ERR_INPUT,
			       "PROVBENCH_THUMBPRINT: %zu hex digits; a SHA-1 "
			       "thumbprint has 40, a SHA-256 one 64",
			       n);
	return PB_OK;
}

/* "%40" -> "@", as govc's url.Parse unescapes credentials; NULL if bad */
static char *percent_decode(const char *s, size_t n)
{
	char *out = malloc(n + 1), *o = out;
	size_t i;

	if (!out)
		return NULL;
	for (i = 0; i < n; i++) {
		if (s[i] == '%' && i + 2 < n + 1 &&
		    isxdigit((unsigned char)s[i + 1]) &&
		    isxdigit((unsigned char)s[i + 2])) {
			char hx[3] = {s[i + 1], s[i + 2], '\0'};

			*o++ = (char)strtol(hx, NULL, 16);
			i += 2;
		} else {
			*o++ = s[i];
		}
	}
	*o = '\0';
	return out;
}

/*
 * https://user:pass@host[:port][/path] -> cfg->url without credentials;
 * user and password are taken only when the environment gave none. As
 * govc (Go's url.Parse) reads it: the authority ends at the first '/',
 * its last '@' ends the credentials, the first ':' before that splits
 * them, and both are percent-decoded, so administrator@vsphere.local:pw@vc
 * and administrator%40vsphere.local:pw@vc both log in.
 */
static enum pb_error parse_url(struct vs_config *cfg, const char *url,
			       char *errbuf)
{
	const char *p = url, *host, *at = NULL, *slash, *colon, *q;
	char scheme[8];
	size_t sl, alen;
	char *buf;

	if (!strncmp(p, "https://", 8)) {
		strcpy(scheme, "https");
		p += 8;
	} else if (!strncmp(p, "http://", 7)) {
		strcpy(scheme, "http");
		p += 7;
	} else if (strstr(p, "://")) {
		return pb_fail(errbuf, PB_ERR_INPUT,
			       "PROVBENCH_URL: only https:// (or http://) URLs "
			       "are supported");
	} else {
		strcpy(scheme, "https"); /* govc accepts a bare host */
	}
	slash = strchr(p, '/');
	alen = slash ? (size_t)(slash - p) : strlen(p);
	for (q = p; q < p + alen; q++)
		if (*q == '@')
			at = q;
	host = at ? at + 1 : p;
	if (at) {
		colon = memchr(p, ':', (size_t)(at - p));
		if (!cfg->username) {
			cfg->username =
				percent_decode(p, colon ? (size_t)(colon - p)
							: (size_t)(at - p));
			if (!cfg->username)
				return PB_ERR_NOMEM;
		}
		if (colon && !cfg->password) {
			cfg->password = percent_decode(
				colon + 1, (size_t)(at - colon - 1));
			if (!cfg->password)
				return PB_ERR_NOMEM;
		}
	}
	sl = slash ? (size_t)(slash - host) : strlen(host);
	/* never echo a URL that holds a password */
	if ((!sl || host[0] == ':') && at)
		return pb_fail(errbuf, PB_ERR_INPUT,
			       "PROVBENCH_URL: no host after the credentials");
	if (!sl || host[0] == ':')
		return pb_fail(errbuf, PB_ERR_INPUT,
			       "PROVBENCH_URL: '%s' names no host", url);
	if (memchr(host, ' ', sl))
		return pb_fail(errbuf, PB_ERR_INPUT,
			       "PROVBENCH_URL: spaces in the host name");
	buf = malloc(strlen(scheme) + 3 + strlen(host) + 5);
	if (!buf)
		return PB_ERR_NOMEM;
	sprintf(buf, "%s://%.*s%s", scheme, (int)sl, host,
		slash && slash[1] ? slash : "/sdk");
	free(cfg->url);
	cfg->url = buf;
	return PB_OK;
}

/* Every file of a ':'-separated CA list must be readable (govc's
 * GOVC_TLS_CA_CERTS is such a list; PROVBENCH_CA_FILE may be one too). */
static enum pb_error check_ca_files(const char *list, const char *var,
				    char *errbuf)
{
	const char *p = list, *e;
	char path[1024];

	while (*p) {
		e = strchr(p, ':');
		snprintf(path, sizeof(path), "%.*s",
			 (int)(e ? (size_t)(e - p) : strlen(p)), p);
		if (path[0] && access(path, R_OK))
			return pb_fail(errbuf, PB_ERR_INPUT, "%s: %s: %s", var,
				       path, strerror(errno));
		if (!e)
			break;
		p = e + 1;
	}
	return PB_OK;
}

static enum pb_error read_password_file(char **out, const char *name,
					const char *path, char *errbuf)
{
	FILE *fp = fopen(path, "re");
	char line[1024];
	enum pb_error err = PB_OK;
	struct stat st;

	if (!fp)
		return pb_fail(errbuf, PB_ERR_INPUT, "%s: %s: %s", name, path,
			       strerror(errno));
	if (fstat(fileno(fp), &st) || !S_ISREG(st.st_mode)) {
		fclose(fp);
		return pb_fail(errbuf, PB_ERR_INPUT,
			       "%s: %s: not a regular file", name, path);
	}
	if (st.st_mode & (S_IRGRP | S_IROTH))
		fprintf(stderr,
			"provbench: warning: %s: %s is readable by %s "
			"(chmod 600 it)\n",
			name, path,
			st.st_mode & S_IROTH ? "everyone" : "its group");
	if (!fgets(line, sizeof(line), fp)) {
		err = pb_fail(errbuf, PB_ERR_INPUT, "%s: %s: empty", name,
			      path);
	} else {
		line[strcspn(line, "\r\n")] = '\0';
		wipe_free(*out);
		*out = strdup(line);
		if (!*out)
			err = PB_ERR_NOMEM;
	}
	explicit_bzero(line, sizeof(line));
	fclose(fp);
	return err;
}

static enum pb_error set(char **dst, const char *v)
{
	if (!v)
		return PB_OK;
	return dup_into(dst, v, strlen(v));
}

static size_t add_name(char *out, size_t len, size_t n, const char *name)
{
	return n + (size_t)snprintf(out + n, n < len ? len - n : 0, "%s%s",
				    n ? ", " : "", name);
}

/* What a run needs beside the login: the guest's login, and a way to
 * trust the server (a pin, a CA, or the warned opt-out). */
static unsigned run_unset(vs_getenv_fn get, void *arg, char *out, size_t len,
			  size_t *n)
{
	const char *login = first(get, arg, "GOVC_GUEST_LOGIN", NULL);
	unsigned k = 0;

	if (!first(get, arg, "PROVBENCH_GUEST_USERNAME", NULL) && !login && ++k)
		*n = add_name(out, len, *n, "PROVBENCH_GUEST_USERNAME");
	if (!first(get, arg, "PROVBENCH_GUEST_PASSWORD",
		   "PROVBENCH_GUEST_PASSWORD_FILE") &&
	    !(login && strchr(login, ':')) && ++k)
		*n = add_name(out, len, *n, "PROVBENCH_GUEST_PASSWORD");
	if (!first(get, arg, "PROVBENCH_THUMBPRINT", "PROVBENCH_CA_FILE") &&
	    !first(get, arg, "GOVC_TLS_CA_CERTS", NULL) &&
	    !truthy(get("PROVBENCH_INSECURE", arg)) &&
	    !truthy(get("GOVC_INSECURE", arg)) && ++k)
		*n = add_name(out, len, *n,
			      "PROVBENCH_THUMBPRINT or PROVBENCH_CA_FILE");
	return k;
}

size_t vs_config_env_unset(vs_getenv_fn get, void *arg, char *out, size_t len,
			   bool run)
{
	const char *url = first(get, arg, "PROVBENCH_URL", "GOVC_URL");
	const char *host = url ? strstr(url, "://") : NULL, *at = NULL;
	bool user, pass;
	size_t n = 0, auth;
	unsigned k = 0;

	/* govc's user:password@host counts as both */
	if (host) {
		host += 3;
		auth = strcspn(host, "/");
		at = memchr(host, '@', auth);
	}
	user = first(get, arg, "PROVBENCH_USERNAME", "GOVC_USERNAME") || at;
	pass = first(get, arg, "PROVBENCH_PASSWORD",
		     "PROVBENCH_PASSWORD_FILE") ||
	       first(get, arg, "GOVC_PASSWORD", NULL) ||
	       (at && memchr(host, ':', (size_t)(at - host)));
	out[0] = '\0';
	if (!url && ++k)
		n += (size_t)snprintf(out + n, n < len ? len - n : 0,
				      "PROVBENCH_URL");
	if (!user && ++k)
		n += (size_t)snprintf(out + n, n < len ? len - n : 0, "%s%s",
				      n ? ", " : "", "PROVBENCH_USERNAME");
	if (!pass && ++k)
		n += (size_t)snprintf(out + n, n < len ? len - n : 0, "%s%s",
				      n ? ", " : "", "PROVBENCH_PASSWORD");
	if (run)
		k += run_unset(get, arg, out, len, &n);
	return k;
}

/* The unset ones, said at once with what each wants. */
static enum pb_error env_unset_fail(vs_getenv_fn get, void *arg, char *errbuf)
{
	char names[128];

	if (!vs_config_env_unset(get, arg, names, sizeof(names), false))
		return PB_OK;
	return pb_fail(errbuf, PB_ERR_INPUT,
		       "%s: not set (the server's https://host/sdk, the login; "
		       "PROVBENCH_PASSWORD_FILE for the password; GOVC_URL, "
		       "GOVC_USERNAME, GOVC_PASSWORD are honoured too)",
		       names);
}

/* A bound in seconds (decimals allowed): 0.1 s to a day. */
static enum pb_error seconds(long *ms, vs_getenv_fn get, void *arg,
			     const char *name, char *errbuf)
{
	const char *v = get(name, arg);
	char *end;
	double s;

	if (!v || !*v)
		return PB_OK;
	errno = 0;
	s = strtod(v, &end);
	if (errno || end == v || *end || !(s >= 0.1 && s <= 86400))
		return pb_fail(errbuf, PB_ERR_INPUT,
			       "%s: '%s' is not a number of seconds from 0.1 "
			       "to 86400",
			       name, v);
	*ms = (long)(s * 1000 + 0.5);
	return PB_OK;
}

enum pb_error vs_config_from_env(struct vs_config *cfg, vs_getenv_fn get,
				 void *arg, char *errbuf)
{
	const char *url, *v, *colon;
	char tp[80];
	enum pb_error err;

	url = first(get, arg, "PROVBENCH_URL", "GOVC_URL");
	if (!url)
		return env_unset_fail(get, arg, errbuf);
	err = set(&cfg->username,
		  first(get, arg, "PROVBENCH_USERNAME", "GOVC_USERNAME"));
	if (!err)
		err = set(&cfg->password,
			  first(get, arg, "PROVBENCH_PASSWORD", NULL));
	if (!err && !cfg->password &&
	    (v = first(get, arg, "PROVBENCH_PASSWORD_FILE", NULL)))
		err = read_password_file(&cfg->password,
					 "PROVBENCH_PASSWORD_FILE", v, errbuf);
	if (!err && !cfg->password)
		err = set(&cfg->password,
			  first(get, arg, "GOVC_PASSWORD", NULL));
	if (!err)
		err = parse_url(cfg, url, errbuf);
	if (err)
		return err;

	v = first(get, arg, "PROVBENCH_THUMBPRINT", NULL);
	if (v) {
		err = vs_thumbprint_normalize(tp, sizeof(tp), v, errbuf);
		if (!err)
			err = set(&cfg->thumbprint, tp);
		if (err)
			return err;
	}
	v = first(get, arg, "PROVBENCH_CA_FILE", NULL);
	err = check_ca_files(v ? v : "", "PROVBENCH_CA_FILE", errbuf);
	if (!err && !v) {
		v = first(get, arg, "GOVC_TLS_CA_CERTS", NULL);
		err = check_ca_files(v ? v : "", "GOVC_TLS_CA_CERTS", errbuf);
	}
	if (!err)
		err = set(&cfg->ca_file, v);
	if (err)
		return err;
	v = get("PROVBENCH_INSECURE", arg);
	cfg->insecure = v && *v ? truthy(v) : truthy(get("GOVC_INSECURE", arg));
	/* ESXi 5.0 / 5.1 speak TLS 1.0 only: allowed when asked for */
	cfg->tls_legacy = truthy(get("PROVBENCH_TLS_LEGACY", arg));

	err = set(&cfg->guest_username,
		  first(get, arg, "PROVBENCH_GUEST_USERNAME", NULL));
	if (!err)
		err = set(&cfg->guest_password,
			  first(get, arg, "PROVBENCH_GUEST_PASSWORD", NULL));
	/* the guest's password in a file too, as the server's: a recipe's
	 * environment file then holds no secret (systemd LoadCredential=) */
	if (!err && !cfg->guest_password &&
	    (v = first(get, arg, "PROVBENCH_GUEST_PASSWORD_FILE", NULL)))
		err = read_password_file(&cfg->guest_password,
					 "PROVBENCH_GUEST_PASSWORD_FILE", v,
					 errbuf);
	/* GOVC_GUEST_LOGIN is user:password */
	v = first(get, arg, "GOVC_GUEST_LOGIN", NULL);
	if (!err && v) {
		colon = strchr(v, ':');
		if (!cfg->guest_username)
			err = dup_into(&cfg->guest_username, v,
				       colon ? (size_t)(colon - v) : strlen(v));
		if (!err && colon && !cfg->guest_password)
			err = set(&cfg->guest_password, colon + 1);
	}
	if (!err)
		err = set(
			&cfg->guest_transfer_host,
			first(get, arg, "PROVBENCH_GUEST_TRANSFER_HOST", NULL));
	if (!err)
		err = set(&cfg->debug_dir,
			  first(get, arg, "PROVBENCH_DEBUG_DIR", NULL));
	if (!err)
		err = seconds(&cfg->connect_timeout_ms, get, arg,
			      "PROVBENCH_CONNECT_TIMEOUT", errbuf);
	if (!err)
		err = seconds(&cfg->reply_timeout_ms, get, arg,
			      "PROVBENCH_REPLY_TIMEOUT", errbuf);
	if (err)
		return err;
	if (!cfg->username || !cfg->password)
		return env_unset_fail(get, arg, errbuf);
	no_core_dumps();
	return PB_OK;
}

void vs_config_dispose(struct vs_config *cfg)
{
	if (!cfg)
		return;
	free(cfg->url);
	free(cfg->username);
	wipe_free(cfg->password);
	free(cfg->thumbprint);
	free(cfg->ca_file);
	free(cfg->guest_username);
	wipe_free(cfg->guest_password);
	free(cfg->guest_transfer_host);
	free(cfg->debug_dir);
	memset(cfg, 0, sizeof(*cfg));
}
