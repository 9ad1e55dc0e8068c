#ifndef PUCKD_BUILD_DATE_H
#define PUCKD_BUILD_DATE_H
/// The civil date (UTC) puckd was compiled: year, month 1...12, day 1...31.
int puckd_build_year(void);
int puckd_build_month(void);
int puckd_build_day(void);
#endif
