// SPDX-License-Identifier: GPL-2.0
/* Shared counter and ring files; see shmfile.h. */

#include <errno.h>
#include <error.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shmfile.h"

void *shm_create(const char *path, size_t size)
{
	const char *what = "size";
	char *tmp;
	void *p;
	int fd, err;

	if (asprintf(&tmp, "%s.XXXXXX", path) < 0)
		error(1, errno, "asprintf");
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		error(1, errno, "create %s", tmp);
	if (fchmod(fd, 0644) || ftruncate(fd, size))
		goto fail;
	what = "mmap";
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		goto fail;
	close(fd);
	what = "rename";
	if (rename(tmp, path))
		goto fail;
	free(tmp);
	return p;
fail:
	err = errno;
	unlink(tmp);
	error(1, err, "%s %s (for %s)", what, tmp, path);
	return NULL;
}

const void *shm_view_map(struct shm_view *v)
{
	struct stat st;
	void *p;
	int fd;

	if (!v->path || stat(v->path, &st))
		return NULL;
	if (v->addr && st.st_dev == v->dev && st.st_ino == v->ino)
		return v->addr;
	if (v->addr)
		munmap(v->addr, v->size);
	v->addr = NULL;
	fd = open(v->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || st.st_size < (off_t)v->size) {
		close(fd);
		return NULL;
	}
	p = mmap(NULL, v->size, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return NULL;
	v->addr = p;
	v->dev = st.st_dev;
	v->ino = st.st_ino;
	return p;
}
