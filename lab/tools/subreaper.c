// SPDX-License-Identifier: GPL-2.0
/*
 * subreaper: run a command that daemonizes (libvirtd --daemon) below a
 * child subreaper (PR_SET_CHILD_SUBREAPER), which reaps the daemon and
 * whatever it orphans (QEMU) the moment they exit.
 *
 * libvirt waits for a killed QEMU until its PID is gone.  Orphans go to
 * PID 1, and a PID 1 that is not systemd may leave them zombies for a
 * while: a firecracker init reaped them every ~2 s, 1.8 s of every guest's
 * stop.
 *
 * subreaper returns once the command's own process has exited, with its
 * status (128 + signal if killed); the reaper stays behind, with its
 * standard streams on /dev/null, until every descendant is gone.
 *
 * Exit status: the command's; 127 it could not be run; 2 bad usage;
 * 1 fork, pipe or the reaper failed.
 */

#include <errno.h>
#include <error.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util.h"

static void usage(void)
{
	printf("Usage: subreaper command [args...]\n"
	       "Runs command below a child subreaper that reaps it and every\n"
	       "process it orphans as soon as they exit; returns with the\n"
	       "command's exit status once the command's own process exits.\n"
	       "  -h, --help  this text\n");
	exit(0);
}

static int exit_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

static void quiet_stdio(void)
{
	int fd = open("/dev/null", O_RDWR);

	if (fd < 0)
		return;
	dup2(fd, STDIN_FILENO);
	dup2(fd, STDOUT_FILENO);
	dup2(fd, STDERR_FILENO);
	if (fd > STDERR_FILENO)
		close(fd);
}

/* The reaper: start the command, report its status, reap until alone. */
static void reap(char **argv, int report)
{
	int status, code;
	pid_t cmd;

	if (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0)
		error(1, errno, "prctl(PR_SET_CHILD_SUBREAPER)");
	cmd = fork();
	if (cmd < 0)
		error(1, errno, "fork");
	if (cmd == 0) {
		close(report);
		execvp(argv[0], argv);
		error(127, errno, "%s", argv[0]);
	}
	while (waitpid(cmd, &status, 0) < 0)
		if (errno != EINTR)
			error(1, errno, "waitpid");
	code = exit_code(status);
	if (write(report, &code, sizeof(code)) != sizeof(code))
		error(1, errno, "report");
	close(report);
	quiet_stdio();
	while (wait(NULL) > 0 || errno == EINTR)
		;
	exit(0);
}

int main(int argc, char **argv)
{
	int pipefd[2], code;
	ssize_t n;
	pid_t pid;

	if (wants_help(argc, argv))
		usage();
	if (argc < 2 || argv[1][0] == '-') {
		fprintf(stderr, "subreaper: a command to run, please (see --help)\n");
		return EXIT_USAGE;
	}
	if (pipe2(pipefd, O_CLOEXEC) < 0)
		error(1, errno, "pipe");
	pid = fork();
	if (pid < 0)
		error(1, errno, "fork");
	if (pid == 0) {
		close(pipefd[0]);
		reap(argv + 1, pipefd[1]);
	}
	close(pipefd[1]);
	do
		n = read(pipefd[0], &code, sizeof(code));
	while (n < 0 && errno == EINTR);
	if (n != sizeof(code))
		error(1, 0, "the reaper died before the command's exit");
	return code;
}
