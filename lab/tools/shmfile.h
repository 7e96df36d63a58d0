/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small files shared between a guest tool that publishes numbers
 * (udp_sink's and the responder's counters) and the sampler that reads them,
 * through mmap MAP_SHARED.  The writer creates the file under a temporary
 * name and renames it into place, so a reader never maps a half-sized
 * file; the reader remaps whenever the path names a new inode.  What the
 * contents mean (magic, version, ordering) is up to the caller.
 */
#ifndef LAB_SHMFILE_H
#define LAB_SHMFILE_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Create @path as a zero-filled file of @size bytes (replacing any old
 * one) and map it read-write.  Exits via error() on failure.
 */
void *shm_create(const char *path, size_t size);

struct shm_view {
	const char *path;	/* NULL: nothing to map */
	size_t size;
	void *addr;
	dev_t dev;
	ino_t ino;
};

/*
 * Map @v->path read-only (@v->size bytes), remapping if the file was
 * replaced.  Returns the mapping, or NULL if there is no path or the file
 * is absent or too small.
 */
const void *shm_view_map(struct shm_view *v);

#endif
