#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# NVMe over Fabrics with T10 protection information end to end, through
# the RDMA R/W API's signature offload: nvme_rdma_rw.sh with NVME_PI=1,
# over rxe by default.  Also needs scsi_debug (see lib.sh).

NVME_PI=1
source "$(dirname "$(readlink -f "$0")")/nvme_rdma_rw.sh"
