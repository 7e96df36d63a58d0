// SPDX-License-Identifier: GPL-2.0
/* cyclictest as the guest's timer probe; see cyclic.h. */

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cyclic.h"
#include "latstats.h"

extern char **environ;

int cyclic_parse_line(const char *line, uint64_t *k, uint64_t *ns)
{
	unsigned long long thread, num, lat;
	int end = 0;

	if (sscanf(line, " %llu: %llu: %llu%n", &thread, &num, &lat,
		   &end) != 3 || thread || (line[end] && line[end] != '\n'))
		return -1;
	if (!isdigit((unsigned char)line[strspn(line, " ")]))
		return -1;
	*k = num;
	*ns = lat;
	return 0;
}

uint64_t cyclic_count(const char *path)
{
	char buf[512], *p, *nl;
	uint64_t k, ns;
	struct stat st;
	off_t off;
	ssize_t len;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (fstat(fd, &st)) {
		close(fd);
		return 0;
	}
	off = st.st_size > (off_t)sizeof(buf) - 1 ?
	      st.st_size - (off_t)sizeof(buf) + 1 : 0;
	len = pread(fd, buf, sizeof(buf) - 1, off);
	close(fd);
	if (len <= 0)
		return 0;
	buf[len] = '\0';
	/* the last complete line that is a sample (a line may be half written) */
	for (nl = strrchr(buf, '\n'); nl; nl = strrchr(buf, '\n')) {
		*nl = '\0';
		p = strrchr(buf, '\n');
		if (!p && off)
			break;		/* its start is before the buffer */
		if (!cyclic_parse_line(p ? p + 1 : buf, &k, &ns))
			return k + 1;
	}
	return 0;
}

void cyclic_reply(FILE *f, unsigned int interval_us, const char *args,
		  struct strbuf *sb)
{
	uint64_t from, to, k, ns, n = 0, overruns = 0, count = 0, *lat;
	uint64_t period = interval_us * 1000ULL, head = 0, tail = 0;
	bool have_tail = false;
	char words[256], *a, *b, *save, *line = NULL;
	struct lat_summary s;
	size_t cap = 0;

	if ((size_t)snprintf(words, sizeof(words), "%s", args) >= sizeof(words))
		words[0] = '\0';
	a = strtok_r(words, " \t", &save);
	b = strtok_r(NULL, " \t", &save);
	if (!b || strtok_r(NULL, " \t", &save) ||
	    parse_u64(a, 0, UINT64_MAX, &from) ||
	    parse_u64(b, 0, UINT64_MAX, &to)) {
		sb_printf(sb, "err tlat range invalid: want 'tlat <from> <to>',"
			  " two sample numbers");
		return;
	}
	if (!f) {
		sb_printf(sb, "err tlat no probe (sampler -C, cyclic start)");
		return;
	}
	if (from >= to) {
		sb_printf(sb, "err tlat range %s %s %s", a, b,
			  from == to ? "empty" : "invalid");
		return;
	}
	if (to - from > CYCLIC_MAX_SAMPLES) {
		sb_printf(sb, "err tlat range %s %s too long", a, b);
		return;
	}
	lat = malloc((to - from) * sizeof(*lat));
	if (!lat) {
		sb_printf(sb, "err tlat out of memory");
		return;
	}
	rewind(f);
	while (getline(&line, &cap, f) > 0) {
		if (cyclic_parse_line(line, &k, &ns))
			continue;
		count = k + 1;
		if (k == to) {
			tail = ns / period;
			have_tail = true;
		}
		if (k < from || k >= to || n == to - from)
			continue;
		if (k == from)
			head = ns / period;
		lat[n++] = ns;
		overruns += ns / period;
	}
	free(line);
	if (n < to - from) {
		sb_printf(sb, "err tlat range %s %s beyond count %llu", a, b,
			  (unsigned long long)count);
		free(lat);
		return;
	}
	lat_compute(lat, n, 0, 0, &s);
	free(lat);
	sb_printf(sb, "tlat %s %s n=%llu ", a, b, (unsigned long long)n);
	lat_format(&s, sb);
	sb_printf(sb, " overruns=%llu head_overruns=%llu",
		  (unsigned long long)overruns, (unsigned long long)head);
	if (have_tail)
		sb_printf(sb, " tail_overruns=%llu", (unsigned long long)tail);
	else
		sb_printf(sb, " tail_overruns=-");
}

pid_t cyclic_spawn(const char *bin, unsigned int interval_us,
		   const char *log, int main_prio)
{
	char iarg[32], *argv[10];
	struct sched_param sp = { .sched_priority = main_prio };
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t none, dfl;
	pid_t pid = -1;
	int err;

	snprintf(iarg, sizeof(iarg), "--interval=%u", interval_us);
	argv[0] = (char *)bin;
	argv[1] = "--default-system";	/* leave cpu_dma_latency alone */
	argv[2] = "--mlockall";
	argv[3] = "--quiet";
	argv[4] = "--policy=other";
	argv[5] = iarg;
	argv[6] = "--verbose";		/* every sample, */
	argv[7] = "--nsecs";		/* in ns, */
	argv[8] = "--unbuffered";	/* as it is printed */
	argv[9] = NULL;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, log,
					 O_WRONLY | O_CREAT | O_TRUNC, 0644);
	posix_spawnattr_init(&attr);
	/*
	 * The sampler ignores SIGPIPE: the probe has the default signal
	 * actions.  Its timer thread is SCHED_OTHER (--policy=other) whatever
	 * the main thread's policy, which @main_prio sets.
	 */
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSCHEDULER |
				 POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	posix_spawnattr_setschedpolicy(&attr, main_prio ? SCHED_FIFO :
				       SCHED_OTHER);
	posix_spawnattr_setschedparam(&attr, &sp);
	sigemptyset(&none);
	posix_spawnattr_setsigmask(&attr, &none);
	sigemptyset(&dfl);
	sigaddset(&dfl, SIGPIPE);
	posix_spawnattr_setsigdefault(&attr, &dfl);
	err = posix_spawnp(&pid, bin, &fa, &attr, argv, environ);
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&fa);
	if (err) {
		errno = err;
		return -1;
	}
	return pid;
}

int cyclic_stop(pid_t pid, unsigned int timeout_ms, char *why, size_t len)
{
	struct timespec tick = { .tv_nsec = 10 * 1000 * 1000 };
	unsigned int waited;
	int status;
	pid_t r;

	if (kill(pid, SIGINT)) {
		snprintf(why, len, "kill: %s", strerror(errno));
		return -1;
	}
	for (waited = 0; ; waited += 10) {
		r = waitpid(pid, &status, WNOHANG);
		if (r == pid)
			break;
		if (r < 0 && errno != EINTR) {
			snprintf(why, len, "waitpid: %s", strerror(errno));
			return -1;
		}
		if (waited >= timeout_ms) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			snprintf(why, len, "did not stop within %u ms",
				 timeout_ms);
			return -1;
		}
		nanosleep(&tick, NULL);
	}
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	if (WIFEXITED(status))
		snprintf(why, len, "exited with status %d",
			 WEXITSTATUS(status));
	else
		snprintf(why, len, "killed by signal %d", WTERMSIG(status));
	return -1;
}
