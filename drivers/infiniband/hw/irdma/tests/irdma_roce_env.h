/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What the RoCE suites share, irdma_verbs_roce (irdma_verbs_roce_kunit.c)
 * and irdma_verbs_roce_ud (irdma_verbs_roce_ud_kunit.c): the QP
 * environment of irdma_qp_env.h on the mock E810 in RoCEv2 mode, the
 * address vector a ULP gives, and the steps that take a QP to RTS.
 */
#ifndef IRDMA_ROCE_ENV_H
#define IRDMA_ROCE_ENV_H

#include <linux/if_ether.h>
#include <linux/in6.h>
#include <rdma/ib_verbs.h>

#include "irdma_qp_env.h"

struct irdma_mock;
struct kunit;

/* The QP's peer: where its address vector points */
#define ROCE_TEST_DEST_QPN	0x123
#define ROCE_TEST_RQ_PSN	0x4567
#define ROCE_TEST_SQ_PSN	0x89ab
#define ROCE_TEST_QKEY		0x11111111
#define ROCE_TEST_HOP_LIMIT	64
#define ROCE_TEST_TCLASS	0x20
#define ROCE_TEST_FLOW_LABEL	0x1abcd
#define ROCE_TEST_RETRY		5
#define ROCE_TEST_RNR_RETRY	6

/* A GRH's fields, as ULPs give them */
struct roce_grh {
	u8 hop_limit;
	u8 tclass;
	u32 flow_label;
};

extern const u8 roce_test_dmac[ETH_ALEN];
extern const struct in6_addr roce_test_dgid;
extern const struct roce_grh roce_test_grh;

void roce_env(struct kunit *test, struct qp_env *env);
void expect_ip(struct kunit *test, const u32 *got, const void *addr,
	       const char *what);
void default_gid(struct irdma_mock *mock, union ib_gid *gid);
void roce_ah_attr_grh(struct irdma_mock *mock, struct rdma_ah_attr *ah,
		      const void *dgid, const u8 *dmac,
		      const struct roce_grh *grh);
void roce_ah_attr(struct irdma_mock *mock, struct rdma_ah_attr *ah,
		  const struct in6_addr *dgid, const u8 *dmac);
int roce_step(struct irdma_mock *mock, struct ib_qp *qp,
	      enum ib_qp_state to, enum ib_mtu mtu,
	      struct ib_qp_attr *attr);
void roce_qp_to(struct kunit *test, struct qp_env *env,
		struct ib_qp *qp, enum ib_qp_state at);

#endif /* IRDMA_ROCE_ENV_H */
