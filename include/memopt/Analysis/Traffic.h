//===- Traffic.h - static DRAM traffic model of kernels -----*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Read-only model of the DRAM bytes a kernel moves. Assumptions: every
// global buffer the kernel touches is streamed from DRAM once (re-reads of
// the same sector within one kernel, such as broadcast operands, hit L2);
// bytes are counted at 32-byte sector granularity; a buffer that is only
// accessed at constant positions of its innermost dimension (an AoS record
// read at some fields) moves only the sectors of each record those fields
// touch.
//
//===----------------------------------------------------------------------===//

#ifndef MEMOPT_ANALYSIS_TRAFFIC_H
#define MEMOPT_ANALYSIS_TRAFFIC_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Value.h"

namespace mlir::memopt {

/// Traffic of one global buffer in one kernel.
struct BufferTraffic {
  Value buffer;
  int64_t bytesRead = 0;
  int64_t bytesWritten = 0;
};

/// Modelled DRAM traffic of one kernel.
struct KernelTraffic {
  int64_t bytesRead = 0;
  int64_t bytesWritten = 0;
  SmallVector<BufferTraffic> buffers;
};

/// The DRAM bytes a kernel moves while it runs, as per-kernel hardware
/// counters see them (Nsight Compute flushes caches before each kernel):
/// L2 is write-back, so a kernel whose written bytes fit in L2 (`l2Bytes`)
/// leaves them there. Larger kernels also leave some dirty lines behind (at
/// most ~27 MB measured on an H200, a few percent of GB-sized kernels);
/// that is not modelled.
int64_t getDramBytesDuringKernel(int64_t bytesRead, int64_t bytesWritten,
                                 int64_t l2Bytes);

/// Models the traffic of the kernel in `region` (a gpu.launch body or a
/// gpu.func body). Memrefs in workgroup or private memory are not DRAM
/// traffic. Buffers with dynamic shapes are counted as zero and reported
/// through `unknown` when given.
KernelTraffic analyzeKernelTraffic(Region &region, bool *unknown = nullptr);

/// DRAM bytes of reading the elements at positions `fields` (each access
/// `accessBytes` wide) of every record of an array of `records` records of
/// `recordElems` elements of `eltBytes` bytes: when records are whole
/// sectors, only the sectors of each record the fields touch, else the
/// whole array (neighbouring records share sectors). The traffic model and
/// the AoS-to-SoA decision both use it.
int64_t getRecordFieldBytes(int64_t records, int64_t recordElems,
                            int64_t eltBytes, ArrayRef<int64_t> fields,
                            int64_t accessBytes, int64_t sectorBytes = 32);

/// One buffer of a kernel over a grid of rows (outer dims x a row), for
/// the L2 reuse model: the bytes it moves per row, and which outer dims
/// index it (a dim that does not is a broadcast: the same bytes are read
/// at every step of that dim).
struct RowGridOperand {
  int64_t bytesPerRow = 0;
  SmallVector<bool> indexedBy;
};

/// DRAM bytes of `operands` when rows are started one after another
/// walking the outer dims `outer` in `order` (outermost first), under an
/// LRU model of L2 holding the last `reuseBytes` distinct bytes touched.
/// From the innermost dim out, an operand not indexed by a dim d is read
/// again from DRAM at each step of d when one step of d touches more
/// distinct bytes (every operand's footprint over the dims inside d) than
/// `reuseBytes`; otherwise those reads hit L2. Each operand's distinct
/// bytes (bytesPerRow times the extents of the dims indexing it) are the
/// minimum.
int64_t getRowGridDramBytes(ArrayRef<int64_t> outer, ArrayRef<int64_t> order,
                            ArrayRef<RowGridOperand> operands,
                            int64_t reuseBytes);

/// The buffer a memref value views through memref.expand_shape,
/// collapse_shape, cast and whole-buffer reinterpret_cast, or the value
/// itself.
Value getViewRoot(Value v);

/// Size in bytes of a statically shaped memref, or -1.
int64_t getStaticBytes(MemRefType type);

/// Whether `type` lives in GPU workgroup or private memory.
bool isOnChipMemory(MemRefType type);

} // namespace mlir::memopt

#endif // MEMOPT_ANALYSIS_TRAFFIC_H
