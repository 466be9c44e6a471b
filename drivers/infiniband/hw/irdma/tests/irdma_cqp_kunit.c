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

kunit_test_suites(&irdma_cqp_suite);
