// SPDX-License-Identifier: GPL-2.0-only
/*
 * rxe: a user QP's send queue is a ring mapped writable into the process,
 * and the requester acts on the WQEs it finds there.  IB_WR_REG_MR (0x20)
 * is a kernel-only opcode whose WQE carries a struct ib_mr pointer
 * (wqe->wr.wr.reg.mr), which rxe_reg_fast_mr() dereferences.  This
 * program writes such a WQE into its own ring, with a pointer it chooses,
 * and rings the doorbell; or posts opcode 0x20 through ibv_post_send(),
 * which librxe copies into the ring as it is (with a NULL reg.mr).
 *
 *   rxe_user_reg_mr ring ADDR   write the WQE into the ring, reg.mr = ADDR
 *                               (hex), doorbell: a post_send with no WR
 *   rxe_user_reg_mr verbs       ibv_post_send() with opcode 0x20
 *   rxe_user_reg_mr opcode N    write a WQE of opcode N into the ring,
 *                               doorbell (wr_opcode_mask() indexes its
 *                               table with N)
 *   rxe_user_reg_mr inline OFF LEN  write an inline SEND of LEN bytes
 *                               whose data starts OFF bytes into the
 *                               WQE's inline data (dma.sge_offset);
 *                               OFF "end": the end of the ring
 *
 * Prints "completion: status N (...)" when the kernel completed the WQE
 * (a fixed kernel: IBV_WC_LOC_QP_OP_ERR), "no completion" otherwise.
 * Needs an rxe device; uses the first one.
 *
 * Build: cc -O2 -Wall -o rxe_user_reg_mr rxe_user_reg_mr.c -libverbs
 */
#include <errno.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <infiniband/verbs.h>
#include <rdma/rdma_user_rxe.h>

#define KERNEL_IB_WR_REG_MR 0x20	/* enum ib_wr_opcode, kernel only */

static void die(const char *what)
{
	fprintf(stderr, "rxe_user_reg_mr: %s: %s\n", what, strerror(errno));
	exit(2);
}

/*
 * The SQ ring: of the rings mapped from the uverbs device (the CQ's, the
 * RQ's and the SQ's), the one whose elements hold a struct rxe_send_wqe
 * and an SGE.  Each ring begins with its struct rxe_queue_buf.  This
 * leaves librxe's private structures alone.
 */
static struct rxe_queue_buf *sq_ring(void)
{
	struct rxe_queue_buf *q, *found = NULL;
	char line[512];
	FILE *maps = fopen("/proc/self/maps", "r");

	if (!maps)
		die("/proc/self/maps");
	while (fgets(line, sizeof(line), maps)) {
		if (!strstr(line, "uverbs"))
			continue;
		q = (struct rxe_queue_buf *)(uintptr_t)strtoull(line, NULL, 16);
		if (q->log2_elem_size < 31 && (1u << q->log2_elem_size) >=
		    sizeof(struct rxe_send_wqe) + sizeof(struct rxe_sge))
			found = q;
	}
	fclose(maps);
	if (!found) {
		fprintf(stderr, "rxe_user_reg_mr: no SQ ring found\n");
		exit(2);
	}
	return found;
}

static int poll_one(struct ibv_cq *cq)
{
	struct ibv_wc wc;
	int i, n;

	for (i = 0; i < 200; i++) {
		n = ibv_poll_cq(cq, 1, &wc);
		if (n < 0)
			die("ibv_poll_cq");
		if (n == 1) {
			printf("completion: status %d (%s) opcode %d\n",
			       wc.status, ibv_wc_status_str(wc.status),
			       wc.opcode);
			return 0;
		}
		usleep(10000);
	}
	printf("no completion\n");
	return 1;
}

int main(int argc, char **argv)
{
	struct ibv_device **devs;
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct ibv_qp_init_attr init = { 0 };
	struct ibv_qp_attr attr;
	struct ibv_port_attr port;
	union ibv_gid gid = { 0 };
	int gid_index = -1, i, ring;
	uint64_t addr = 0;
	uint32_t opcode = KERNEL_IB_WR_REG_MR, off = 0, len = 0;
	int off_end = 0;

	if (argc >= 2 && !strcmp(argv[1], "verbs"))
		ring = 0;
	else if (argc >= 3 && !strcmp(argv[1], "ring"))
		ring = 1, addr = strtoull(argv[2], NULL, 16);
	else if (argc >= 3 && !strcmp(argv[1], "opcode"))
		ring = 1, opcode = strtoul(argv[2], NULL, 0);
	else if (argc >= 4 && !strcmp(argv[1], "inline"))
		ring = 1, opcode = IBV_WR_SEND,
		off = strtoul(argv[2], NULL, 0),
		off_end = !strcmp(argv[2], "end"),
		len = strtoul(argv[3], NULL, 0);
	else {
		fprintf(stderr, "usage: %s ring ADDR | verbs | opcode N | "
			"inline OFF LEN\n",
			argv[0]);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);

	devs = ibv_get_device_list(NULL);
	if (!devs || !devs[0])
		die("no RDMA device");
	ctx = ibv_open_device(devs[0]);
	if (!ctx)
		die("ibv_open_device");
	printf("device %s, uid %d\n", ibv_get_device_name(devs[0]), getuid());
	if (ibv_query_port(ctx, 1, &port))
		die("ibv_query_port");
	/* an IPv4-mapped GID if there is one, else the first */
	for (i = 0; i < port.gid_tbl_len && i < 16; i++) {
		union ibv_gid g;

		if (ibv_query_gid(ctx, 1, i, &g) || !g.global.interface_id)
			continue;
		if (gid_index < 0 || (!g.global.subnet_prefix &&
				      g.raw[10] == 0xff && g.raw[11] == 0xff)) {
			gid = g;
			gid_index = i;
		}
	}
	if (gid_index < 0)
		die("no GID");

	pd = ibv_alloc_pd(ctx);
	if (!pd)
		die("ibv_alloc_pd");
	cq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	if (!cq)
		die("ibv_create_cq");
	init.send_cq = cq;
	init.recv_cq = cq;
	init.qp_type = IBV_QPT_RC;
	init.sq_sig_all = 1;
	init.cap.max_send_wr = 8;
	init.cap.max_recv_wr = 8;
	init.cap.max_send_sge = 1;
	init.cap.max_recv_sge = 1;
	qp = ibv_create_qp(pd, &init);
	if (!qp)
		die("ibv_create_qp");

	/* RC, connected to itself through its own GID */
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IBV_QPS_INIT;
	attr.port_num = 1;
	attr.qp_access_flags = IBV_ACCESS_LOCAL_WRITE;
	if (ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			  IBV_QP_PORT | IBV_QP_ACCESS_FLAGS))
		die("modify_qp INIT");
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IBV_QPS_RTR;
	attr.path_mtu = IBV_MTU_1024;
	attr.dest_qp_num = qp->qp_num;
	attr.rq_psn = 0;
	attr.max_dest_rd_atomic = 1;
	attr.min_rnr_timer = 12;
	attr.ah_attr.is_global = 1;
	attr.ah_attr.grh.dgid = gid;
	attr.ah_attr.grh.sgid_index = gid_index;
	attr.ah_attr.grh.hop_limit = 1;
	attr.ah_attr.port_num = 1;
	if (ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_AV |
			  IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
			  IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER))
		die("modify_qp RTR");
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IBV_QPS_RTS;
	attr.timeout = 14;
	attr.retry_cnt = 1;
	attr.rnr_retry = 1;
	attr.sq_psn = 0;
	attr.max_rd_atomic = 1;
	if (ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_TIMEOUT |
			  IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN |
			  IBV_QP_MAX_QP_RD_ATOMIC))
		die("modify_qp RTS");
	printf("qp %u in RTS, gid index %d\n", qp->qp_num, gid_index);

	if (ring) {
		struct rxe_queue_buf *q = sq_ring();
		_Atomic uint32_t *prod = (_Atomic uint32_t *)&q->producer_index;
		uint32_t p = atomic_load_explicit(prod, memory_order_relaxed);
		struct rxe_send_wqe *wqe = (struct rxe_send_wqe *)
			(q->data + ((p & q->index_mask) << q->log2_elem_size));
		struct ibv_send_wr *bad, none = { 0 };
		struct ibv_sge sges[2] = { { 0 } };
		uint64_t *reg = (uint64_t *)&wqe->wr.wr;

		printf("sq ring %p: log2_elem_size %u index_mask %u prod %u\n",
		       (void *)q, q->log2_elem_size, q->index_mask, p);
		memset(wqe, 0, 1u << q->log2_elem_size);
		wqe->wr.wr_id = 0x5151;
		wqe->wr.opcode = opcode;
		wqe->wr.send_flags = IBV_SEND_SIGNALED;
		reg[0] = addr;			/* wr.reg.mr */
		reg[1] = 0;			/* wr.reg.key, wr.reg.access */
		if (len) {
			wqe->wr.send_flags |= IBV_SEND_INLINE;
			wqe->dma.length = len;
			wqe->dma.resid = len;
			if (off_end)
				off = ((q->index_mask + 1 - (p & q->index_mask))
				       << q->log2_elem_size) -
				      offsetof(struct rxe_send_wqe,
					       dma.inline_data);
			wqe->dma.sge_offset = off;
			printf("inline SEND of %u bytes at sge_offset %u\n",
			       len, off);
		}
		atomic_store_explicit(prod, (p + 1) & q->index_mask,
				      memory_order_release);
		printf("posted opcode 0x%x with reg.mr = 0x%016" PRIx64 "\n",
		       opcode, addr);
		/*
		 * The doorbell: librxe's post_send rings it (a post_send
		 * command with no WR) even when it refused the first WR of
		 * the list, as here (more SGEs than the QP has): nothing
		 * more is written to the ring.
		 */
		none.sg_list = sges;
		none.num_sge = 2;	/* the QP has max_send_sge 1 */
		none.opcode = IBV_WR_SEND;
		i = ibv_post_send(qp, &none, &bad);
		printf("doorbell: ibv_post_send returned %d (expected EINVAL)\n",
		       i);
	} else {
		struct ibv_send_wr wr = { 0 }, *bad;

		wr.wr_id = 0x5252;
		wr.opcode = (enum ibv_wr_opcode)KERNEL_IB_WR_REG_MR;
		wr.send_flags = IBV_SEND_SIGNALED;
		i = ibv_post_send(qp, &wr, &bad);
		printf("ibv_post_send(opcode 0x20) returned %d\n", i);
	}
	return poll_one(cq);
}
