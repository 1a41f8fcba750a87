//===- Transforms.h - memopt reusable transformations -------*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Public entry points of memopt's transformations, for embedding compilers.
// Passes are thin wrappers over these functions.
//
//===----------------------------------------------------------------------===//

#ifndef MEMOPT_TRANSFORMS_TRANSFORMS_H
#define MEMOPT_TRANSFORMS_TRANSFORMS_H

#include "memopt/Dialect/MemoptDialect.h"
#include "memopt/Transforms/Options.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Support/LLVM.h"

namespace mlir::memopt {

/// What kernel formation needs to know: the chip facts of the module's
/// #memopt.target (applyTarget) and the tuning knobs of the pass options.
/// A chip fact left at 0 here comes from the target.
struct KernelTargetInfo {
  unsigned blockSize = 256;
  unsigned maxThreadsPerBlock = 1024;
  unsigned warpSize = 32;
  unsigned vectorBytes = 16;
  /// The L1 cache line (the target's cache_line_bytes): what the threads of
  /// one row should cover in one warp-wide access.
  unsigned cacheLineBytes = 128;
  /// L2 bytes (the target's l2_bytes). The block order of row kernels
  /// models L2 as an LRU cache of half this size for lines every
  /// multiprocessor reads (an H100/H200 L2 is two partitions, and a line
  /// read from both sides may be held in both).
  int64_t l2Bytes = 50 * 1024 * 1024;
  /// Shared memory a CTA may use without opt-in, in bytes.
  unsigned sharedMemoryBytes = 48 * 1024;
  /// Row kernels: vector chunks each thread holds per row (bytes in flight
  /// per thread versus threads per row). 8 measured best on an H200 for the
  /// quantization epilogue (W8: 88.5% of copy vs 83.7% with 4) and within
  /// noise for RMSNorm and softmax (bench/results/*tune*).
  unsigned rowChunksPerThread = 8;
  /// Elementwise kernels: least bytes each thread loads. A group whose
  /// chunk loads fewer (packed int4 weights and a per-group scale: 6 bytes
  /// for a 16-byte store) takes 2, 4 or 8 chunks per thread, as long as
  /// the grid still fills every multiprocessor's threads (run 42 under
  /// Nsight Compute: such a kernel stalls on its few loads in flight).
  /// 0 keeps one chunk per thread.
  unsigned elementwiseLoadBytes = 16;
  /// Column reductions: rows one block reduces (the atomics that combine
  /// slices are one per column per this many rows) and rows loaded per
  /// loop iteration (independent loads in flight per thread). 16 measured
  /// best for the whole-column form on an H200 (W7: 92.7% of copy against
  /// 89.7% with 8 in the same process, bench/results/*tune2*).
  unsigned columnRowsPerBlock = 256;
  unsigned columnUnroll = 16;
  /// Whole-column reductions: contiguous bytes of a row one block covers.
  unsigned columnSliceBytes = 64;
  /// Streaming multiprocessors of the target (H100/H200 SXM: 132). Column
  /// reductions use one block per column slice when that gives every
  /// multiprocessor a block.
  unsigned multiprocessors = 132;
  /// 32-bit registers of one multiprocessor (sm_80..sm_100: 65536).
  unsigned registersPerMultiprocessor = 65536;
  /// Row kernels with column partials: time a row-walking block spends on
  /// each row (loads, reductions, barriers) and the bandwidth all bytes
  /// stream at, the two terms of the model that sizes their blocks. On an
  /// H200: ~1.8 us per row (LayerNorm backward 16384x4096 bf16, 62 rows per
  /// block in 110 us; 2048x4096, 15.5 rows in 29.7 us: run 21.1 under
  /// Nsight Compute) and 3600 bytes per ns (what that row kernel streams
  /// at with 2-3 blocks per multiprocessor; the copy reaches 4200).
  unsigned rowLatencyNanoseconds = 1800;
  unsigned bytesPerNanosecond = 3600;
  /// Row kernels: most elements of a row one thread keeps in registers;
  /// longer rows are streamed in tiles, one pass per reduction.
  unsigned rowRegisterElements = 32;
  /// Shared memory of one multiprocessor (H100/H200: 228 KiB). Streamed row
  /// kernels reserve over half of it so that one row is in flight per
  /// multiprocessor: their later passes re-read the row from L2.
  unsigned sharedMemoryPerMultiprocessor = 228 * 1024;
  /// Row kernels: a row too long for one block's registers is split over
  /// the blocks of a thread-block cluster of up to this many blocks (16:
  /// sm_90's non-portable limit), which combine their partial reductions
  /// through distributed shared memory; each row is then read from DRAM
  /// once. 1 streams such rows instead.
  unsigned maxClusterSize = 16;
  /// Threads per block of such kernels. At `rowRegisterElements` per thread
  /// a thread needs ~64 registers, so 1024 threads fill a multiprocessor's
  /// 65536: 512 lets two blocks share one, one loading while the other
  /// reduces and stores (a hint keeps the registers within the budget).
  unsigned clusterBlockThreads = 512;
  /// Such kernels run as persistent clusters (as many as fit at once, each
  /// walking rows `clusters` apart) that copy their next row's slice into
  /// shared memory while they reduce and write the current one. Off by
  /// default: on an H200 it measured slower than one row per cluster (RMSNorm
  /// over rows of 65536: 82.1% of copy against 91.5%, same clusters resident;
  /// bench/results/2026-11-30-run10-*).
  bool rowPrefetch = false;
  /// Rows split over a cluster: elements per thread held in shared memory
  /// besides the `rowRegisterElements` in registers (0: registers only).
  /// Each block then holds a longer slice, so fewer threads share a row:
  /// for rows of 65536 f32 clusters of 4 blocks of half
  /// `clusterBlockThreads` (four per multiprocessor; 124 fit at once), for
  /// 262144 clusters of 8 of 512 (30 fit, against 14 of 16 with registers
  /// only), or of 16 of 256 when the ops compute exp or the like per
  /// element (softmax). On an H200: RMSNorm 92.9% / 89.1% of copy against
  /// 90.9 / 73.7 with registers only, softmax 94.7 / 88.5 against
  /// 77.4 / 61.3 (bench/results/2026-11-30-run10-*/r3,
  /// 2026-11-30-run11-*/r4).
  unsigned rowSharedElements = 32;
  /// Interleaved row kernels: most adjacent rows one thread holds (1: one
  /// row a thread, measured faster; see the pass option).
  unsigned interleavedRowsPerThread = 1;
  /// Interleaved row kernels: most rows one block holds side by side (0:
  /// a warp's worth; see the pass option).
  unsigned interleavedBlockRows = 0;
  /// Column reductions split over slices of rows: the last block of each
  /// column block to finish combines the partials (a counter per column
  /// block), in place of a second kernel.
  bool columnLastBlock = true;
  /// A one-row reduction after a row kernel that writes what it reads (a
  /// split reduction's second stage) runs in that kernel's last block to
  /// finish (#memopt.row after_last_block).
  bool lastBlockTails = true;
  /// Most shared memory one CTA may use with opt-in (sm_90: 227 KiB).
  unsigned maxSharedMemoryPerBlock = 227 * 1024;
  /// Most blocks of a cluster every part of the chip schedules (larger ones
  /// are non-portable and pack worse into the GPCs).
  unsigned portableClusterSize = 8;
};

/// Fills the chip facts of `info` from `target`: shared memory, the
/// portable cluster size, and the warp size, largest block, widest access,
/// multiprocessors and cluster limit where `info` leaves them at 0 (a
/// nonzero cluster limit is capped at the target's).
void applyTarget(KernelTargetInfo &info, TargetAttr target);

/// The chip facts of `target` alone (the knobs at their defaults): what
/// kernel emission, which decides nothing, reads.
KernelTargetInfo getTargetFacts(TargetAttr target);

/// memopt-form-groups: partitions the linalg.generic ops of each block of
/// `func` into
/// kernel groups and moves each group into a memopt.kernel_group at the
/// position of its last op (a remark on every op left out of the group
/// before it says why). `strategy` Naive puts every op in a group of its
/// own. Returns the number of groups formed.
unsigned formKernelGroups(RewriterBase &rewriter, FunctionOpInterface func,
                          const KernelTargetInfo &target,
                          KernelStrategy strategy);

/// memopt-select-kernel-strategy: the strategy of `group` (the first family
/// that applies, or #memopt.naive with remarks saying why none does).
/// Fails only on an empty group.
FailureOr<Attribute> selectKernelStrategy(KernelGroupOp group,
                                          const KernelTargetInfo &target);

/// selectKernelStrategy on every kernel group of `func` without a strategy
/// (a pinned one stays as it is).
LogicalResult selectKernelStrategies(FunctionOpInterface func,
                                     const KernelTargetInfo &target);

/// emitKernelGroup on every kernel group of `func`; adds to the number of
/// kernels emitted and of ops fused into multi-op kernels.
LogicalResult emitKernelGroups(RewriterBase &rewriter,
                               FunctionOpInterface func,
                               const KernelTargetInfo &target,
                               unsigned &numKernels, unsigned &numFusedOps);

/// memopt-emit-kernels: replaces `group` by the kernel its strategy
/// attribute describes, exactly; buffers used only inside the group are
/// never allocated. A missing strategy or one that cannot be honoured for
/// the group's ops on `target` is an error at the group (the IR is then
/// unchanged). Returns the number of ops fused into a multi-op kernel.
FailureOr<unsigned> emitKernelGroup(RewriterBase &rewriter,
                                    KernelGroupOp group,
                                    const KernelTargetInfo &target);

/// Replaces `op` (a linalg.generic on memrefs with static shapes) by one
/// gpu.launch: one thread per point of the parallel iteration space, the
/// innermost parallel loop on consecutive threads, reduction loops
/// sequential in the thread. Fails (without touching the IR) if the op has
/// dynamic shapes or tensor semantics.
FailureOr<gpu::LaunchOp> formNaiveKernel(RewriterBase &rewriter,
                                         linalg::GenericOp op,
                                         const KernelTargetInfo &target);


/// Replaces a barrier-free gpu.launch by sequential scf.for loops over its
/// grid and block, so that the kernel runs on the host. Fails if the body
/// synchronizes (barrier, shuffle) or uses workgroup memory.
LogicalResult convertLaunchToLoops(RewriterBase &rewriter, gpu::LaunchOp op);

/// Sub-byte integers (i2, i4) are stored packed: how many elements share a
/// byte (4 for i2, 2 for i4), or 0 for any other type.
unsigned getSubBytePackFactor(Type elementType);

/// The i8 storage of a packed sub-byte tensor: `t` with its innermost dim
/// divided by the pack factor. Null unless `t` is a static tensor of rank
/// >= 1 whose element type packs and whose innermost dim is a multiple of
/// the factor.
RankedTensorType getPackedStorageType(RankedTensorType t);

/// Rewrites the packable sub-byte arguments of `func` to their packed i8
/// storage (memopt-pack-sub-byte-integers); `func` must be in the input
/// contract after memopt-decompose-linalg. Fails, with an error at the
/// offending op, on a reader it cannot rewrite.
LogicalResult packSubByteArguments(func::FuncOp func);

/// Expands memopt.last_arrival `op` in place, in a gpu.launch body or an
/// outlined kernel: a barrier; thread 0 counts the block's arrival on
/// `counters[slot]` (a memref of `slots` i32 counters), resets the counter
/// on the slot's last arrival and stores whether it was into `flag` (a
/// workgroup memref<1xi32>), with device-scope acquire-release fences
/// before and after the count when `fences`; a barrier; every thread reads
/// the flag.
void expandLastArrival(RewriterBase &rewriter, LastArrivalOp op,
                       Value counters, Value flag, bool fences);

} // namespace mlir::memopt

#endif // MEMOPT_TRANSFORMS_TRANSFORMS_H
