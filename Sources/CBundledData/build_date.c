// The day this file was compiled (C's __DATE__, "Mmm dd yyyy"; clang honours SOURCE_DATE_EPOCH for
// reproducible builds): the default pivot for resolving receiver dates (GPS week rollover), as
// ntpd's basedate and receiver firmware use their build date.
#include "build_date.h"

static int month_number(const char *m) {
    static const char names[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
    for (int i = 0; i < 12; i++) {
        if (names[3 * i] == m[0] && names[3 * i + 1] == m[1] && names[3 * i + 2] == m[2]) return i + 1;
    }
    return 1;
}

int puckd_build_year(void) {
    const char *d = __DATE__;
    return (d[7] - '0') * 1000 + (d[8] - '0') * 100 + (d[9] - '0') * 10 + (d[10] - '0');
}

int puckd_build_month(void) { return month_number(__DATE__); }

int puckd_build_day(void) {
    const char *d = __DATE__;
    return (d[4] == ' ' ? 0 : (d[4] - '0') * 10) + (d[5] - '0');
}
