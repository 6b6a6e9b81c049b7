/* Calls one API of three required-reason categories. */
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <mach/mach_time.h>
unsigned long long routelog_required_reason_probe(const char *path) {
    struct stat st; struct statvfs fs;
    if (stat(path, &st) != 0 || statvfs(path, &fs) != 0) return 0;
    return mach_absolute_time() + (unsigned long long)st.st_size + fs.f_bavail;
}
