# Deliberate bugs in drivers/infiniband/core/rw.c that the KUnit suites
# must catch (make mutate).  One per line: "<name>: <perl -0 expression>".
mr-split-advance: s/for \(j = 0; j < nents; j\+\+\)/for (j = 0; j + 1 < nents; j++)/
no-local-inv: s/\tif \(!mr->need_inval\)\n\t\treturn 0;/\tif (1)\n\t\treturn 0;/
no-read-with-inv: s/\t\tif \(read_inv\)\n/\t\tif (0)\n/
offset-every-entry: s/(sges\[i\]\.lkey = qp->pd->local_dma_lkey;\n)\t\toffset = 0;\n/$1/
leak-mr: s/(\t\t\t)ib_mr_pool_put\(qp, &qp->rdma_mrs, ctx->reg\[i\]\.mr\);/$1if (i)\n$1\tib_mr_pool_put(qp, &qp->rdma_mrs, ctx->reg[i].mr);/
no-key-bump: s/\tib_update_fast_reg_key\(mr, ib_inc_rkey\(mr->lkey\)\);\n//
mr-remote-addr-stuck: s/\t\tremote_addr \+= reg\[i\]\.sge\.length;\n//
read-split-at-write-limit: s/dir == DMA_TO_DEVICE \? qp->max_write_sge : qp->max_read_sge/qp->max_write_sge/
no-sge-fallback: s/\t\tif \(ret != -EAGAIN\)\n\t\t\treturn ret;\n/\t\treturn ret;\n/
last-wr-unsignalled: s/\t\tlast->send_flags \|= IB_SEND_SIGNALED;\n//
div-round-down: s/return n \/ d \+ !!\(n % d\);/return n \/ d;/
stale-context-on-error: s/(\tint ret;\n\n)\tmemset\(ctx, 0, sizeof\(\*ctx\)\);\n(\tif \(!sg_cnt \|\|)/$1$2/
iwarp-reg-not-remote-writable: s/return IB_ACCESS_LOCAL_WRITE \| IB_ACCESS_REMOTE_WRITE;/return IB_ACCESS_LOCAL_WRITE;/
offset-skip-off-by-one: s/\*offset >= sg_dma_len\(sg\)/*offset > sg_dma_len(sg)/
send-queue-factor-2: s/\t\treturn 3;\n/\t\treturn 2;\n/
eagain-without-pool: s/return none \? -EINVAL : -EAGAIN;/return -EAGAIN;/
chain-dropped: s/\tlast->next = chain_wr;\n/\tlast->next = NULL;\n/
mr-pages-uncapped: s/return clamp\(len, 1U, RDMA_RW_MAX_PAGES_PER_MR\);/return max(len, 1U);/
read-with-inv-stale-key: s/\t\treg->wr\.wr\.ex\.invalidate_rkey = mr->lkey;\n//
bvec-mr-by-segment: s/rdma_rw_bvec_count\(bvecs, nr_bvec, iter, true, &nr_pages\)/rdma_rw_bvec_count(bvecs, nr_bvec, iter, false, &nr_pages)/
bvec-mr-for-sgl-rd: s/if \(rdma_rw_mr_required\(qp->device, port_num, dir\)\)\n\t\tret = rdma_rw_init_mr_bvec/if (rdma_rw_io_needs_mr(qp->device, port_num, dir, nr_bvec))\n\t\tret = rdma_rw_init_mr_bvec/
bvec-iter-unbounded: s/\t\tif \(iter->bi_idx >= nr_bvec\)\n\t\t\treturn -EINVAL;\n//
bvec-context-untagged: s/ctx->bvec = ret >= 0;/ctx->bvec = false;/
map-errno-squashed: s/return ret < 0 \? ret : -EINVAL;/return -EINVAL;/
