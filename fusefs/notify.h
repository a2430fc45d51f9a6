/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Readiness for a service manager (Type=notify), as sd_notify(3) sends it. */
#ifndef CGXFS_NOTIFY_H
#define CGXFS_NOTIFY_H

/* Sends READY=1 and MAINPID to $NOTIFY_SOCKET, if set; 0 when there is none. */
int notify_ready(void);
/* Hands @fd to systemd's file descriptor store under @name (FileDescriptorStoreMax=). */
int notify_fdstore(int fd, const char *name);
/* Has systemd close every file its store holds under @name (FDSTOREREMOVE=1). */
int notify_fdstore_remove(const char *name);

#endif
