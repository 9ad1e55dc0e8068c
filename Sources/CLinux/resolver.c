#include <stddef.h>
#include <elf.h>
#include <link.h>
#include <sys/auxv.h>
#include "clinux_resolver.h"

// glibc's own override of /etc/nsswitch.conf for one database (nss/nss_database.c), meant for static
// programs; declared here because no public header does.
extern int __nss_configure_lookup(const char *database, const char *service_line);

int clinux_is_static_executable(void) {
    const ElfW(Phdr) *headers = (const ElfW(Phdr) *)getauxval(AT_PHDR);
    unsigned long count = getauxval(AT_PHNUM);
    if (headers == NULL) return 0;
    for (unsigned long i = 0; i < count; i++) {
        if (headers[i].p_type == PT_INTERP) return 0;
    }
    return 1;
}

int clinux_restrict_static_host_lookup(void) {
    if (!clinux_is_static_executable()) return 0;
    return __nss_configure_lookup("hosts", "files dns") == 0 ? 1 : -1;
}
