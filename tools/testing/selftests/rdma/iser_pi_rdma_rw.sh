#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# iSER with T10 protection information end to end, through the RDMA R/W
# API's signature offload: iser_rdma_rw.sh with ISER_PI=1, over rxe by
# default.  Also needs scsi_debug (see lib.sh) and ib_iser's pi_enable.

ISER_PI=1
source "$(dirname "$(readlink -f "$0")")/iser_rdma_rw.sh"
