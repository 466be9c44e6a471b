/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel's WARNs, counted per KUnit case through the error_report_end
 * tracepoint, and dma-debug's DMA-API errors: a case fails on any WARN it
 * did not claim and on any DMA-API error.
 */
#ifndef _WARN_WATCH_H
#define _WARN_WATCH_H

#include <kunit/test.h>

void *warn_watch_knob(const char *dir, const char *name);
int warn_watch_register(void);
void warn_watch_suite_exit(struct kunit_suite *suite);
int warn_watch_case_init(struct kunit *test);
void warn_watch_expect(struct kunit *test, int n);
void warn_watch_expect_once(struct kunit *test, const char *misuse);

#endif /* _WARN_WATCH_H */
