#ifndef PUCKD_CLINUX_RESOLVER_H
#define PUCKD_CLINUX_RESOLVER_H
// Host name lookup in the static device binary. glibc's getaddrinfo goes through NSS: the `files` and
// `dns` services are built into a static glibc, but any other service /etc/nsswitch.conf names
// (mdns4_minimal on Raspberry Pi OS, resolve and myhostname on Ubuntu, ldap, …) would be dlopen'ed from
// the *system's* glibc, a different version than the one linked in, which may fail or crash. A static
// puckd therefore restricts host lookups to files (/etc/hosts) and dns (/etc/resolv.conf).

/// 1 when this process is a static executable (no program interpreter), else 0.
int clinux_is_static_executable(void);
/// In a static executable: makes host lookups use only glibc's built-in `files dns` (via
/// __nss_configure_lookup, glibc's interface for exactly this) and returns 1; in a dynamic one does
/// nothing (the system's NSS modules match its glibc) and returns 0; -1 when glibc refused.
int clinux_restrict_static_host_lookup(void);
#endif
