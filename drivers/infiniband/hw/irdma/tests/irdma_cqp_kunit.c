// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit tests of irdma's control QP (CQP) against a firmware model.
 *
 * The mock device of irdma_mock.c brings up the driver's own CQP and
 * control CQ (CCQ) over its BAR, and irdma_hw_model.c answers them as the
 * E810 would: it reads the WQEs the driver writes into the CQP SQ with the
 * hardware's field layouts, executes them and writes CQEs that the
 * driver's completion path consumes.  The cases check both ends: what the
 * model decoded, and what the driver made of the answer.
 */
#include <kunit/test.h>
#include <net/addrconf.h>
#include <rdma/ib_cache.h>

#include "irdma_hw_model.h"
#include "irdma_mock.h"

/* CCQPSTATUS: the CQP has its context */
#define CQP_TEST_CCQPSTATUS_DONE	BIT(0)
/* An SD command: its index, and the bit that makes it a write */
#define CQP_TEST_SD_IDX			GENMASK(11, 0)
#define CQP_TEST_SD_WRITE		BIT(31)
/* SD data: valid, direct (not paged), backing page count, address */
#define CQP_TEST_SD_VALID		BIT_ULL(0)
#define CQP_TEST_SD_DIRECT		BIT_ULL(1)
#define CQP_TEST_SD_BP_COUNT		GENMASK_ULL(11, 2)
#define CQP_TEST_SD_ADDR		GENMASK_ULL(63, 12)
/* A CQE's valid bit */
#define CQP_TEST_CQE_VALID		BIT_ULL(63)
/* CQPERRCODES */
#define CQP_TEST_ERR_MAJ		GENMASK(31, 16)
#define CQP_TEST_ERR_MIN		GENMASK(15, 0)

/* An error for the model to inject: any that irdma_wait_event() maps to EIO */
#define CQP_TEST_MAJ			0x0100
#define CQP_TEST_MIN			0x0002

/* More commands than the CQP SQ (2048) and the CCQ (2049) hold */
#define CQP_TEST_WRAP_CMDS		2100

static void expect_wqe(struct kunit *test, struct irdma_mock *mock, u64 seq,
		       u8 opcode, struct irdma_hw_wqe *w)
{
	KUNIT_ASSERT_TRUE(test, irdma_hw_model_wqe(mock->hw, seq, w));
	KUNIT_EXPECT_EQ(test, w->opcode, opcode);
}

/*
 * Bring-up: the CQP context handshake, then the CCQ's own creation as the
 * first WQE, completed in the CCQ, then the PBLE resource's first SD
 * written through the CQP with the CCQ's completion, then the counters
 * that registration reads for the port's hw_counters; every CQE consumed.
 */
static void cqp_bring_up(struct kunit *test)
{
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	struct irdma_sc_cqp *cqp = &mock->rf.cqp.sc_cqp;
	struct irdma_ccq *ccq = &mock->rf.ccq;
	struct irdma_vsi_pestat *pestat = mock->iwdev->vsi.pestat;
	u32 sd_idx = mock->pble_rsrc.fpm_base_addr / IRDMA_HMC_DIRECT_BP_SIZE;
	struct irdma_hmc_sd_entry *sd_entry;
	struct irdma_hw_wqe w;
	struct irdma_hw_sd sd;

	KUNIT_EXPECT_TRUE(test, irdma_hw_model_cqp_up(mock->hw));
	KUNIT_EXPECT_EQ(test, irdma_mock_reg(mock, IRDMA_CCQPSTATUS),
			CQP_TEST_CCQPSTATUS_DONE);

	expect_wqe(test, mock, 0, IRDMA_HW_OP_CREATE_CQ, &w);
	KUNIT_EXPECT_EQ(test, w.idx, 0);
	KUNIT_EXPECT_TRUE(test, w.polarity);
	KUNIT_EXPECT_FALSE(test, w.error);
	KUNIT_EXPECT_EQ(test, w.cq.id, 0);
	KUNIT_EXPECT_EQ(test, w.cq.size, IW_CCQ_SIZE);
	KUNIT_EXPECT_EQ(test, w.cq.ring_pa, ccq->mem_cq.pa);
	KUNIT_EXPECT_EQ(test, w.cq.shadow_pa, ccq->shadow_area.pa);
	KUNIT_EXPECT_EQ(test, w.cq.ctx, (u64)(uintptr_t)&ccq->sc_cq >> 1);
	KUNIT_EXPECT_EQ(test, w.cq.shadow_threshold, 16);
	KUNIT_EXPECT_TRUE(test, w.cq.ceq_id_valid);
	KUNIT_EXPECT_EQ(test, w.cq.ceq_id, 0);
	KUNIT_EXPECT_TRUE(test, w.cq.check_overflow);
	KUNIT_EXPECT_FALSE(test, w.cq.virtual_map);
	KUNIT_EXPECT_FALSE(test, w.cq.ceqe_mask);
	KUNIT_EXPECT_FALSE(test, w.cq.avoid_mem_cflct);

	/* The PBLE chunk does not start the SD: a paged SD, its PD page */
	sd_entry = &mock->rf.sc_dev.hmc_info->sd_table.sd_entry[sd_idx];
	expect_wqe(test, mock, 1, IRDMA_HW_OP_UPDATE_PE_SDS, &w);
	KUNIT_EXPECT_EQ(test, w.idx, 1);
	KUNIT_EXPECT_FALSE(test, w.error);
	KUNIT_EXPECT_EQ(test, w.sds.cnt, 1);
	KUNIT_EXPECT_EQ(test, w.sds.mem, 0);
	KUNIT_EXPECT_EQ(test, w.sds.cmd[0] & CQP_TEST_SD_IDX, sd_idx);
	KUNIT_EXPECT_TRUE(test, w.sds.cmd[0] & CQP_TEST_SD_WRITE);
	KUNIT_EXPECT_TRUE(test, w.sds.data[0] & CQP_TEST_SD_VALID);
	KUNIT_EXPECT_FALSE(test, w.sds.data[0] & CQP_TEST_SD_DIRECT);
	KUNIT_EXPECT_EQ(test, FIELD_GET(CQP_TEST_SD_BP_COUNT, w.sds.data[0]),
			IRDMA_HMC_PD_CNT_IN_SD);
	KUNIT_EXPECT_EQ(test, w.sds.data[0] & CQP_TEST_SD_ADDR,
			sd_entry->u.pd_table.pd_page_addr.pa);
	KUNIT_ASSERT_TRUE(test, irdma_hw_model_sd(mock->hw, sd_idx, &sd));
	KUNIT_EXPECT_EQ(test, sd.writes, 1);
	KUNIT_EXPECT_EQ(test, sd.data, w.sds.data[0]);

	/* Registration: the port's counters, into the VSI's buffer */
	expect_wqe(test, mock, 2, IRDMA_HW_OP_GATHER_STATS, &w);
	KUNIT_EXPECT_EQ(test, w.idx, 2);
	KUNIT_EXPECT_FALSE(test, w.error);
	KUNIT_EXPECT_EQ(test, w.stats.buf_pa,
			pestat->gather_info.stats_buff_mem.pa);
	KUNIT_EXPECT_FALSE(test, w.stats.use_inst);

	/* Nothing else, and the driver took every CQE */
	KUNIT_EXPECT_EQ(test, irdma_hw_model_wqes(mock->hw), 3);
	KUNIT_EXPECT_EQ(test, IRDMA_RING_CURRENT_TAIL(cqp->sq_ring), 3);
	KUNIT_EXPECT_EQ(test, IRDMA_RING_CURRENT_HEAD(cqp->sq_ring), 3);
	KUNIT_EXPECT_EQ(test, atomic64_read(&cqp->completed_ops), 3);
	KUNIT_EXPECT_EQ(test, irdma_mock_reg(mock, IRDMA_CQPTAIL), 3);
	KUNIT_EXPECT_EQ(test,
			IRDMA_RING_CURRENT_HEAD(ccq->sc_cq.cq_uk.cq_ring), 3);
	/* Armed at bring-up, and again by each handler after the 1st CQE */
	KUNIT_EXPECT_EQ(test, irdma_hw_model_ccq_arms(mock->hw), 3);
	KUNIT_EXPECT_EQ(test, mock->resets, 0);
}

/*
 * A verb through the driver's CQP: ib_alloc_mr() and ib_dereg_mr() with no
 * stub in the way, each one WQE that the model executes and a completion
 * that irdma_wait_event() collects through irdma_cqp_ce_handler().
 */
static void cqp_alloc_dereg_mr(struct kunit *test)
{
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	u64 seq = irdma_hw_model_wqes(mock->hw);
	u32 pd_id = mock->pd.sc_pd.pd_id;
	struct irdma_hw_wqe w;
	struct ib_mr *mr;
	u32 idx, pd;

	mr = ib_alloc_mr(&mock->pd.ibpd, IB_MR_TYPE_MEM_REG, 16);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mr);
	idx = mr->rkey >> 8;
	KUNIT_ASSERT_EQ(test, irdma_hw_model_wqes(mock->hw), seq + 1);
	expect_wqe(test, mock, seq, IRDMA_HW_OP_ALLOC_STAG, &w);
	KUNIT_EXPECT_FALSE(test, w.error);
	KUNIT_EXPECT_TRUE(test, w.stag.mr);
	KUNIT_EXPECT_EQ(test, w.stag.idx, idx);
	KUNIT_EXPECT_EQ(test, w.stag.pd, pd_id);
	KUNIT_EXPECT_EQ(test, w.stag.len, 16 * PAGE_SIZE);
	KUNIT_EXPECT_TRUE(test, w.stag.remote);
	KUNIT_EXPECT_EQ(test, w.stag.rights, 0);
	/* 4 KiB pages; the PBLEs are named later, by the REG_MR WQE */
	KUNIT_EXPECT_EQ(test, w.stag.hpage_size, 0);
	KUNIT_EXPECT_EQ(test, w.stag.pbl_size, 0);
	KUNIT_EXPECT_EQ(test, w.stag.first_pble, 0);
	KUNIT_ASSERT_TRUE(test, irdma_hw_model_stag(mock->hw, idx, &pd));
	KUNIT_EXPECT_EQ(test, pd, pd_id);
	KUNIT_EXPECT_EQ(test, (u64)atomic64_read(&mock->rf.cqp.sc_cqp.completed_ops),
			seq + 1);

	KUNIT_ASSERT_EQ(test, ib_dereg_mr(mr), 0);
	KUNIT_ASSERT_EQ(test, irdma_hw_model_wqes(mock->hw), seq + 2);
	expect_wqe(test, mock, seq + 1, IRDMA_HW_OP_DEALLOC_STAG, &w);
	KUNIT_EXPECT_FALSE(test, w.error);
	KUNIT_EXPECT_TRUE(test, w.stag.mr);
	KUNIT_EXPECT_EQ(test, w.stag.idx, idx);
	KUNIT_EXPECT_EQ(test, w.stag.pd, pd_id);
	KUNIT_EXPECT_FALSE(test, irdma_hw_model_stag(mock->hw, idx, &pd));
	KUNIT_EXPECT_EQ(test, mock->resets, 0);
}

/*
 * The PBLE resource outgrows its first chunk: the driver programs the next
 * SD through the CQP (a paged SD: the chunk is only 8 pages), then
 * allocates the STag.
 */
static void cqp_pble_growth(struct kunit *test)
{
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	u32 sd_idx = mock->pble_rsrc.fpm_base_addr /
		     IRDMA_HMC_DIRECT_BP_SIZE + 1;
	u64 seq = irdma_hw_model_wqes(mock->hw);
	struct irdma_hmc_sd_entry *sd_entry;
	struct irdma_hw_wqe w;
	struct irdma_hw_sd sd;
	struct ib_mr *mr;

	mr = ib_alloc_mr(&mock->pd.ibpd, IB_MR_TYPE_MEM_REG, 1025);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mr);
	KUNIT_ASSERT_EQ(test, irdma_hw_model_wqes(mock->hw), seq + 2);

	sd_entry = &mock->rf.sc_dev.hmc_info->sd_table.sd_entry[sd_idx];
	KUNIT_ASSERT_TRUE(test, sd_entry->valid);
	expect_wqe(test, mock, seq, IRDMA_HW_OP_UPDATE_PE_SDS, &w);
	KUNIT_EXPECT_FALSE(test, w.error);
	KUNIT_EXPECT_EQ(test, w.sds.cnt, 1);
	KUNIT_EXPECT_EQ(test, w.sds.cmd[0] & CQP_TEST_SD_IDX, sd_idx);
	KUNIT_EXPECT_TRUE(test, w.sds.cmd[0] & CQP_TEST_SD_WRITE);
	KUNIT_EXPECT_TRUE(test, w.sds.data[0] & CQP_TEST_SD_VALID);
	KUNIT_EXPECT_FALSE(test, w.sds.data[0] & CQP_TEST_SD_DIRECT);
	KUNIT_EXPECT_EQ(test, w.sds.data[0] & CQP_TEST_SD_ADDR,
			sd_entry->u.pd_table.pd_page_addr.pa);
	KUNIT_ASSERT_TRUE(test, irdma_hw_model_sd(mock->hw, sd_idx, &sd));
	KUNIT_EXPECT_EQ(test, sd.writes, 1);
	KUNIT_EXPECT_EQ(test, sd.data, w.sds.data[0]);

	expect_wqe(test, mock, seq + 1, IRDMA_HW_OP_ALLOC_STAG, &w);
	KUNIT_EXPECT_FALSE(test, w.error);
	KUNIT_EXPECT_EQ(test, w.stag.idx, mr->rkey >> 8);
	KUNIT_EXPECT_EQ(test, w.stag.len, 1025 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr), 0);
	KUNIT_EXPECT_EQ(test, mock->resets, 0);
}

static u64 used_pbles(struct irdma_mock *mock)
{
	struct irdma_chunk *chunk;
	u64 total = 0;

	list_for_each_entry(chunk, &mock->pble_rsrc.pinfo.clist, list)
		total += chunk->size / sizeof(u64);
	return total - mock->pble_rsrc.pinfo.free_pble_cnt;
}

/*
 * A CQP error in the CQE: the verb fails with -EIO and gives back what it
 * took (STag, PBLEs, CQP request); the model changed nothing.
 */
static void cqp_alloc_mr_fails(struct kunit *test)
{
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	u32 stags = bitmap_weight(mock->rf.allocated_mrs, mock->rf.max_mr);
	u32 avail = irdma_mock_cqp_avail(mock);
	u64 seq = irdma_hw_model_wqes(mock->hw);
	u64 pbles = used_pbles(mock);
	struct irdma_hw_wqe w;
	struct ib_mr *mr;
	u32 pd;

	irdma_hw_model_fail_next(mock->hw, IRDMA_HW_OP_ALLOC_STAG,
				 CQP_TEST_MAJ, CQP_TEST_MIN);
	mr = ib_alloc_mr(&mock->pd.ibpd, IB_MR_TYPE_MEM_REG, 16);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(mr), -EIO);

	KUNIT_ASSERT_EQ(test, irdma_hw_model_wqes(mock->hw), seq + 1);
	expect_wqe(test, mock, seq, IRDMA_HW_OP_ALLOC_STAG, &w);
	KUNIT_EXPECT_TRUE(test, w.error);
	KUNIT_EXPECT_EQ(test, w.maj, CQP_TEST_MAJ);
	KUNIT_EXPECT_EQ(test, w.min, CQP_TEST_MIN);
	KUNIT_EXPECT_FALSE(test, irdma_hw_model_stag(mock->hw, w.stag.idx,
						     &pd));
	KUNIT_EXPECT_EQ(test,
			FIELD_GET(CQP_TEST_ERR_MAJ,
				  irdma_mock_reg(mock, IRDMA_CQPERRCODES)),
			CQP_TEST_MAJ);
	KUNIT_EXPECT_EQ(test,
			FIELD_GET(CQP_TEST_ERR_MIN,
				  irdma_mock_reg(mock, IRDMA_CQPERRCODES)),
			CQP_TEST_MIN);

	KUNIT_EXPECT_FALSE(test, test_bit((w.stag.idx << 8 &
					    mock->rf.mr_stagmask) >> 8,
					   mock->rf.allocated_mrs));
	KUNIT_EXPECT_EQ(test, bitmap_weight(mock->rf.allocated_mrs,
					    mock->rf.max_mr), stags);
	KUNIT_EXPECT_EQ(test, used_pbles(mock), pbles);
	KUNIT_EXPECT_EQ(test, irdma_mock_cqp_avail(mock), avail);
	KUNIT_EXPECT_EQ(test, mock->resets, 0);

	/* One WQE only: the next one is the model's to execute again */
	mr = ib_alloc_mr(&mock->pd.ibpd, IB_MR_TYPE_MEM_REG, 16);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mr);
	KUNIT_EXPECT_TRUE(test, irdma_hw_model_stag(mock->hw, mr->rkey >> 8,
						    &pd));
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr), 0);
}

/* One STag command as verbs.c issues it: a request the caller waits on */
static int cqp_stag_cmd(struct irdma_mock *mock, bool alloc, u32 idx)
{
	struct irdma_pci_f *rf = &mock->rf;
	struct irdma_cqp_request *req;
	struct cqp_cmds_info *cmd;
	int ret;

	req = irdma_alloc_and_get_cqp_request(&rf->cqp, true);
	if (!req)
		return -ENOMEM;
	cmd = &req->info;
	cmd->post_sq = 1;
	if (alloc) {
		cmd->cqp_cmd = IRDMA_OP_ALLOC_STAG;
		cmd->in.u.alloc_stag.info = (struct irdma_allocate_stag_info) {
			.stag_idx = idx,
			.pd_id = mock->pd.sc_pd.pd_id,
			.total_len = PAGE_SIZE,
			.page_size = PAGE_SIZE,
		};
		cmd->in.u.alloc_stag.dev = &rf->sc_dev;
		cmd->in.u.alloc_stag.scratch = (uintptr_t)req;
	} else {
		cmd->cqp_cmd = IRDMA_OP_DEALLOC_STAG;
		cmd->in.u.dealloc_stag.info = (struct irdma_dealloc_stag_info) {
			.stag_idx = idx,
			.pd_id = mock->pd.sc_pd.pd_id,
			.mr = true,
		};
		cmd->in.u.dealloc_stag.dev = &rf->sc_dev;
		cmd->in.u.dealloc_stag.scratch = (uintptr_t)req;
	}
	ret = irdma_handle_cqp_op(rf, req);
	irdma_put_cqp_request(&rf->cqp, req);
	return ret;
}

/*
 * Past the end of both rings: the CQP SQ wraps to a second pass written
 * with valid bit 0, the CCQ wraps too, and every command still completes
 * in order, each CQE naming its own WQE.
 */
static void cqp_ring_wraps(struct kunit *test)
{
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	struct irdma_sc_cqp *cqp = &mock->rf.cqp.sc_cqp;
	struct irdma_cq_uk *ccq = &mock->rf.ccq.sc_cq.cq_uk;
	u32 idx = mock->rf.max_mr - 1;
	u64 seq = irdma_hw_model_wqes(mock->hw);
	u64 total = seq + CQP_TEST_WRAP_CMDS;
	struct irdma_hw_wqe w;
	int i, ret;
	u8 op;
	u32 pd;

	for (i = 0; i < CQP_TEST_WRAP_CMDS; i++) {
		ret = cqp_stag_cmd(mock, !(i % 2), idx);
		if (ret)
			break;
	}
	KUNIT_ASSERT_EQ_MSG(test, ret, 0, "command %d", i);
	KUNIT_EXPECT_EQ(test, irdma_hw_model_wqes(mock->hw), total);
	KUNIT_EXPECT_EQ(test,
			irdma_hw_model_op_count(mock->hw,
						IRDMA_HW_OP_ALLOC_STAG) +
			irdma_hw_model_op_count(mock->hw,
						IRDMA_HW_OP_DEALLOC_STAG),
			CQP_TEST_WRAP_CMDS);
	KUNIT_EXPECT_FALSE(test, irdma_hw_model_stag(mock->hw, idx, &pd));

	/*
	 * The last WQE of the first pass, the first of the second: commands
	 * alternate from an ALLOC_STAG at @seq
	 */
	op = (cqp->sq_size - 1 - seq) % 2 ? IRDMA_HW_OP_DEALLOC_STAG :
					      IRDMA_HW_OP_ALLOC_STAG;
	expect_wqe(test, mock, cqp->sq_size - 1, op, &w);
	KUNIT_EXPECT_EQ(test, w.idx, cqp->sq_size - 1);
	KUNIT_EXPECT_TRUE(test, w.polarity);
	KUNIT_EXPECT_FALSE(test, w.error);
	op = op == IRDMA_HW_OP_ALLOC_STAG ? IRDMA_HW_OP_DEALLOC_STAG :
					    IRDMA_HW_OP_ALLOC_STAG;
	expect_wqe(test, mock, cqp->sq_size, op, &w);
	KUNIT_EXPECT_EQ(test, w.idx, 0);
	KUNIT_EXPECT_FALSE(test, w.polarity);
	KUNIT_EXPECT_FALSE(test, w.error);
	KUNIT_EXPECT_EQ(test, w.stag.idx, idx);

	/* The driver: second pass of the SQ and of the CCQ, all consumed */
	KUNIT_EXPECT_EQ(test, cqp->polarity, 0);
	KUNIT_EXPECT_EQ(test, IRDMA_RING_CURRENT_TAIL(cqp->sq_ring),
			total % cqp->sq_size);
	KUNIT_EXPECT_EQ(test, irdma_mock_reg(mock, IRDMA_CQPTAIL),
			total % cqp->sq_size);
	KUNIT_EXPECT_EQ(test, (u64)atomic64_read(&cqp->completed_ops), total);
	KUNIT_EXPECT_EQ(test, ccq->polarity, 0);
	KUNIT_EXPECT_EQ(test, IRDMA_RING_CURRENT_HEAD(ccq->cq_ring),
			total % ccq->cq_size);
	KUNIT_EXPECT_EQ(test, irdma_mock_cqp_avail(mock),
			mock->cqp_pool_len);
	KUNIT_EXPECT_EQ(test, mock->resets, 0);
}

/*
 * Teardown as irdma_ctrl_deinit_hw() does it: the CCQ destroyed by a WQE
 * the driver polls CQPTAIL for (the CCQ cannot complete its own end), then
 * the CQP context withdrawn through CCQPLOW.
 */
static void cqp_teardown(struct kunit *test)
{
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	struct irdma_ccq *ccq = &mock->rf.ccq;
	struct irdma_cq_uk *uk = &ccq->sc_cq.cq_uk;
	u32 head = IRDMA_RING_CURRENT_HEAD(uk->cq_ring);
	u64 seq = irdma_hw_model_wqes(mock->hw);
	struct irdma_hw_wqe w;
	u64 cqe_hdr;

	irdma_mock_stop_cqp(mock);
	KUNIT_ASSERT_EQ(test, irdma_hw_model_wqes(mock->hw), seq + 1);
	expect_wqe(test, mock, seq, IRDMA_HW_OP_DESTROY_CQ, &w);
	KUNIT_EXPECT_FALSE(test, w.error);
	KUNIT_EXPECT_EQ(test, w.cq.id, 0);
	KUNIT_EXPECT_EQ(test, w.cq.size, IW_CCQ_SIZE);
	KUNIT_EXPECT_EQ(test, w.cq.ctx, (u64)(uintptr_t)&ccq->sc_cq >> 1);
	KUNIT_EXPECT_EQ(test, w.cq.shadow_pa, ccq->shadow_area.pa);
	KUNIT_EXPECT_TRUE(test, w.cq.ceq_id_valid);
	KUNIT_EXPECT_EQ(test, irdma_mock_reg(mock, IRDMA_CQPTAIL), seq + 1);

	/* No CQE: the slot after the last one consumed is still stale */
	get_64bit_val(uk->cq_base[head].buf, 24, &cqe_hdr);
	KUNIT_EXPECT_NE(test, !!(cqe_hdr & CQP_TEST_CQE_VALID), uk->polarity);

	KUNIT_EXPECT_FALSE(test, irdma_hw_model_cqp_up(mock->hw));
	KUNIT_EXPECT_EQ(test, irdma_mock_reg(mock, IRDMA_CCQPSTATUS), 0);
	KUNIT_EXPECT_EQ(test, mock->resets, 0);
}

static struct kunit_case irdma_cqp_cases[] = {
	KUNIT_CASE(cqp_bring_up),
	KUNIT_CASE(cqp_alloc_dereg_mr),
	KUNIT_CASE(cqp_pble_growth),
	KUNIT_CASE(cqp_alloc_mr_fails),
	KUNIT_CASE(cqp_ring_wraps),
	KUNIT_CASE(cqp_teardown),
	{}
};

static struct kunit_suite irdma_cqp_suite = {
	.name = "irdma_cqp",
	.test_cases = irdma_cqp_cases,
};

/*
 * KUnit suite irdma_verbs_device: the query verbs of the mock E810, in
 * iWARP and in RoCEv2 mode, judged by what the function is: the E810's
 * limits (below, from its datasheet's RDMA limits as the hardware
 * definitions give them), the object counts the mock gave its HMC, its
 * PCI IDs and its netdev's MAC.
 */

/* E810 (GEN2): fragments per WQE, for sends, receives and READ sinks */
#define DEV_TEST_E810_SGES		13
/* RDMA READs in flight: as responder (IRD) and as requester (ORD) */
#define DEV_TEST_E810_IRD		127
#define DEV_TEST_E810_ORD		255
/* The REG_MR page sizes: 4K, 2M and 1G */
#define DEV_TEST_E810_PAGES		(SZ_4K | SZ_2M | SZ_1G)
/* 45 bits of MR length, 31 of message length */
#define DEV_TEST_E810_MR_SIZE		BIT_ULL(45)
#define DEV_TEST_E810_MSG_SIZE		(BIT(31) - 1)
/* CQEs a CQ ring has at most, one of them left empty */
#define DEV_TEST_E810_CQES		((1U << 20) - 1)
/* A REG_MR's page list: 256K pages */
#define DEV_TEST_E810_FMR_PAGES		262144
/* The completion timestamp counter: 17 bits */
#define DEV_TEST_E810_TS_MASK		GENMASK_ULL(16, 0)
/* Quanta a WQE of 13 fragments takes in the SQ, and the SQ's at most */
#define DEV_TEST_E810_WR_QUANTA		8
#define DEV_TEST_E810_SQ_QUANTA		32768
/* HMC objects the mock gives its function (irdma_mock.c) */
#define DEV_TEST_MOCK_OBJS		64
#define DEV_TEST_MOCK_MRS		4096
/* The mock's PCI function: an Intel E810-C for QSFP */
#define DEV_TEST_VENDOR			0x8086
#define DEV_TEST_DEVICE			0x1592

static const enum irdma_mock_profile dev_profiles[] = {
	IRDMA_MOCK_E810_IWARP, IRDMA_MOCK_E810_ROCE,
};

/* What does not depend on the generation's limits runs on the X722 too */
static const enum irdma_mock_profile dev_any_profiles[] = {
	IRDMA_MOCK_E810_IWARP, IRDMA_MOCK_E810_ROCE, IRDMA_MOCK_X722_IWARP,
};

static void dev_profile_desc(const enum irdma_mock_profile *p, char *desc)
{
	static const char * const names[] = {
		[IRDMA_MOCK_E810_IWARP] = "E810 iWARP",
		[IRDMA_MOCK_E810_ROCE] = "E810 RoCEv2",
		[IRDMA_MOCK_X722_IWARP] = "X722 iWARP",
	};

	strscpy(desc, names[*p], KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(dev_profile, dev_profiles, dev_profile_desc);
KUNIT_ARRAY_PARAM(dev_any_profile, dev_any_profiles, dev_profile_desc);

static struct irdma_mock *dev_mock(struct kunit *test)
{
	struct irdma_mock_params p = {
		.profile = *(const enum irdma_mock_profile *)test->param_value,
	};

	return irdma_mock_create(test, &p);
}

/*
 * query_device, asked now and as the RDMA core kept it at registration:
 * the E810's limits, the function's PCI IDs, a system image GUID from
 * the port's MAC, object counts within what the function's HMC holds,
 * and for RoCE the RNR NAK generation and one P_Key.
 */
static void dev_query_device(struct kunit *test)
{
	struct irdma_mock *mock = dev_mock(test);
	struct ib_device *ibdev = &mock->iwdev->ibdev;
	bool roce = rdma_protocol_roce(ibdev, 1);
	struct ib_udata uhw = {};
	struct ib_device_attr a;
	__be64 guid;
	int i;

	KUNIT_ASSERT_EQ(test, ibdev->ops.query_device(ibdev, &a, &uhw), 0);
	for (i = 0; i < 2; i++, a = ibdev->attrs) {
		addrconf_addr_eui48((u8 *)&guid, mock->iwdev->netdev->dev_addr);
		KUNIT_EXPECT_MEMEQ(test, &a.sys_image_guid, &guid, sizeof(guid));
		KUNIT_EXPECT_EQ(test, a.vendor_id, DEV_TEST_VENDOR);
		KUNIT_EXPECT_EQ(test, a.vendor_part_id, DEV_TEST_DEVICE);
		KUNIT_EXPECT_EQ(test, a.max_send_sge, DEV_TEST_E810_SGES);
		KUNIT_EXPECT_EQ(test, a.max_recv_sge, DEV_TEST_E810_SGES);
		KUNIT_EXPECT_EQ(test, a.max_sge_rd, DEV_TEST_E810_SGES);
		KUNIT_EXPECT_EQ(test, a.max_qp_rd_atom, DEV_TEST_E810_IRD);
		KUNIT_EXPECT_EQ(test, a.max_qp_init_rd_atom, DEV_TEST_E810_ORD);
		KUNIT_EXPECT_EQ(test, a.page_size_cap, DEV_TEST_E810_PAGES);
		KUNIT_EXPECT_EQ(test, a.max_mr_size, DEV_TEST_E810_MR_SIZE);
		KUNIT_EXPECT_EQ(test, a.max_cqe, DEV_TEST_E810_CQES - 1);
		KUNIT_EXPECT_EQ(test, a.max_fast_reg_page_list_len,
				DEV_TEST_E810_FMR_PAGES);
		KUNIT_EXPECT_EQ(test, a.timestamp_mask, DEV_TEST_E810_TS_MASK);
		KUNIT_EXPECT_GT(test, a.max_qp_wr, 0);
		KUNIT_EXPECT_LE(test, a.max_qp_wr * DEV_TEST_E810_WR_QUANTA,
				DEV_TEST_E810_SQ_QUANTA);
		KUNIT_EXPECT_TRUE(test, a.device_cap_flags &
					IB_DEVICE_MEM_MGT_EXTENSIONS);
		KUNIT_EXPECT_TRUE(test, a.kernel_cap_flags & IBK_LOCAL_DMA_LKEY);
		KUNIT_EXPECT_EQ(test, !!(a.device_cap_flags &
					 IB_DEVICE_RC_RNR_NAK_GEN), roce);
		KUNIT_EXPECT_EQ(test, a.max_pkeys, roce ? 1 : 0);

		KUNIT_EXPECT_GT(test, a.max_qp, 0);
		KUNIT_EXPECT_LE(test, a.max_qp, DEV_TEST_MOCK_OBJS);
		KUNIT_EXPECT_GT(test, a.max_cq, 0);
		KUNIT_EXPECT_LE(test, a.max_cq, DEV_TEST_MOCK_OBJS);
		KUNIT_EXPECT_GT(test, a.max_mr, 0);
		KUNIT_EXPECT_LE(test, a.max_mr, DEV_TEST_MOCK_MRS);
		KUNIT_EXPECT_EQ(test, a.max_mw, a.max_mr);
		KUNIT_EXPECT_LE(test, a.max_ah, DEV_TEST_MOCK_OBJS);
		KUNIT_EXPECT_GT(test, a.max_pd, 0);
	}
}

/* User data in a kernel query_device is refused */
static void dev_query_device_udata(struct kunit *test)
{
	struct irdma_mock *mock = dev_mock(test);
	struct ib_device *ibdev = &mock->iwdev->ibdev;
	struct ib_udata uhw = { .inlen = 8 };
	struct ib_device_attr a;

	KUNIT_EXPECT_EQ(test, ibdev->ops.query_device(ibdev, &a, &uhw),
			-EINVAL);
	uhw = (struct ib_udata){ .outlen = 8 };
	KUNIT_EXPECT_EQ(test, ibdev->ops.query_device(ibdev, &a, &uhw),
			-EINVAL);
}

/*
 * A QP of what query_device says the device takes: max_qp_wr work
 * requests of max_send_sge and max_recv_sge SGEs each way.  The hardware
 * gets queues that hold them; one more work request is refused.
 */
static void dev_max_qp(struct kunit *test)
{
	struct irdma_mock *mock = dev_mock(test);
	struct ib_device *ibdev = &mock->iwdev->ibdev;
	const struct ib_device_attr *a = &ibdev->attrs;
	struct ib_qp_init_attr init = {
		.qp_type = IB_QPT_RC,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.cap = { a->max_qp_wr, a->max_qp_wr, a->max_send_sge,
			 a->max_recv_sge, 0 },
	};
	struct ib_pd *pd = irdma_mock_alloc_pd(mock);
	struct ib_cq *cq = irdma_mock_verbs_cq(mock, 2 * a->max_qp_wr);
	struct irdma_hw_qp hw;
	struct ib_qp *qp;

	init.send_cq = cq;
	init.recv_cq = cq;
	qp = ib_create_qp(pd, &init);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, qp);
	KUNIT_EXPECT_GE(test, init.cap.max_send_wr, a->max_qp_wr);
	KUNIT_EXPECT_GE(test, init.cap.max_recv_wr, a->max_qp_wr);
	KUNIT_ASSERT_TRUE(test, irdma_hw_model_qp(mock->hw, qp->qp_num, &hw));
	KUNIT_EXPECT_LE(test, hw.sq_quanta, DEV_TEST_E810_SQ_QUANTA);
	KUNIT_EXPECT_GE(test, hw.sq_quanta, a->max_qp_wr);
	KUNIT_EXPECT_GE(test, hw.rq_quanta >> hw.rq_wqe_shift, a->max_qp_wr);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);

	init.cap.max_send_wr = a->max_qp_wr + 1;
	qp = ib_create_qp(pd, &init);
	KUNIT_EXPECT_TRUE(test, IS_ERR(qp));
	if (!IS_ERR(qp))
		ib_destroy_qp(qp);
	ib_destroy_cq(cq);
}

/*
 * query_port: an Ethernet port whose netdev is down (the mock's never
 * comes up), 4096-byte MTUs at most and the netdev's 1500 bytes as an
 * active 1024-byte MTU, the CM supported, the E810's message size; an
 * iWARP port has its one MAC-based GID, a RoCE port a GID table and a
 * P_Key table.
 */
static void dev_query_port(struct kunit *test)
{
	struct irdma_mock *mock = dev_mock(test);
	struct ib_device *ibdev = &mock->iwdev->ibdev;
	bool roce = rdma_protocol_roce(ibdev, 1);
	struct ib_port_attr port;

	KUNIT_ASSERT_EQ(test, ib_query_port(ibdev, 1, &port), 0);
	KUNIT_EXPECT_EQ(test, rdma_port_get_link_layer(ibdev, 1),
			IB_LINK_LAYER_ETHERNET);
	KUNIT_EXPECT_EQ(test, port.state, IB_PORT_DOWN);
	KUNIT_EXPECT_EQ(test, port.phys_state, IB_PORT_PHYS_STATE_DISABLED);
	KUNIT_EXPECT_EQ(test, port.max_mtu, IB_MTU_4096);
	KUNIT_EXPECT_EQ(test, port.active_mtu, IB_MTU_1024);
	KUNIT_EXPECT_TRUE(test, port.port_cap_flags & IB_PORT_CM_SUP);
	KUNIT_EXPECT_EQ(test, port.max_msg_sz, DEV_TEST_E810_MSG_SIZE);
	KUNIT_EXPECT_EQ(test, port.gid_tbl_len, roce ? 32 : 1);
	KUNIT_EXPECT_EQ(test, port.pkey_tbl_len, roce ? 1 : 0);
	KUNIT_EXPECT_EQ(test, !!port.ip_gids, roce);
	KUNIT_EXPECT_EQ(test, rdma_protocol_iwarp(ibdev, 1), !roce);
	KUNIT_EXPECT_EQ(test, rdma_protocol_roce_udp_encap(ibdev, 1), roce);
}

/*
 * An iWARP port's one GID is its MAC, zero-padded, as the iWARP CM
 * expects; there is no second one.  query_pkey is RoCE's alone.
 */
static void dev_query_gid_iwarp(struct kunit *test)
{
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	struct ib_device *ibdev = &mock->iwdev->ibdev;
	union ib_gid gid, want = {};
	u16 pkey;

	memcpy(want.raw, mock->iwdev->netdev->dev_addr, ETH_ALEN);
	KUNIT_ASSERT_EQ(test, rdma_query_gid(ibdev, 1, 0, &gid), 0);
	KUNIT_EXPECT_MEMEQ(test, gid.raw, want.raw, sizeof(gid.raw));
	KUNIT_EXPECT_LT(test, rdma_query_gid(ibdev, 1, 1, &gid), 0);
	KUNIT_EXPECT_LT(test, ib_query_pkey(ibdev, 1, 0, &pkey), 0);
}

static struct kunit_case irdma_verbs_device_cases[] = {
	KUNIT_CASE_PARAM(dev_query_device, dev_profile_gen_params),
	KUNIT_CASE_PARAM(dev_query_device_udata, dev_any_profile_gen_params),
	KUNIT_CASE_PARAM(dev_max_qp, dev_any_profile_gen_params),
	KUNIT_CASE_PARAM(dev_query_port, dev_any_profile_gen_params),
	KUNIT_CASE(dev_query_gid_iwarp),
	{}
};

static struct kunit_suite irdma_verbs_device_suite = {
	.name = "irdma_verbs_device",
	.test_cases = irdma_verbs_device_cases,
};

kunit_test_suites(&irdma_cqp_suite, &irdma_verbs_device_suite);
