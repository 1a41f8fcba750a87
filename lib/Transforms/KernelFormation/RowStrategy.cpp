//===- RowStrategy.cpp - row kernels: selection and checks -*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The row family (#memopt.row): a group with a reduction over the innermost
// loop becomes one block per row, each thread holding its chunks of the row
// in registers; thread partials combine through warp shuffles and a
// shared-memory exchange, and every op of the group (prologue, reductions,
// epilogue) runs on the register copy, so the row is read from DRAM once.
// A row too long for one block is split over a thread-block cluster whose
// blocks hold slices (part of each in shared memory, copied in with
// cp.async) and combine their totals through distributed shared memory;
// softmax's maximum and sum are then exchanged once (online softmax).
// Persistent clusters (row-prefetch) walk several rows, copying the next
// row into shared memory while reducing the current one.
//
//===----------------------------------------------------------------------===//

#include "RowFamily.h"
#include "Strategies.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <limits>

using namespace mlir;
using namespace mlir::memopt;
using namespace mlir::memopt::kf;

int64_t kf::getChunksPerRow(int64_t inner, int64_t vec, bool shifted) {
  return shifted ? llvm::divideCeil(inner + vec - 1, vec) : inner / vec;
}

/// The persistent form of a row split over clusters of `clusterSize`
/// blocks: as many clusters as fit on the target at once, each prefetching
/// its next row's slice of the inputs read along the row into shared
/// memory. Returns the number of clusters, or 0 with a remark saying why
/// not.
static int64_t planRowPrefetch(const Group &group,
                               const KernelTargetInfo &target, int64_t rows,
                               int64_t clusterSize, int64_t threads,
                               int64_t numChunks, unsigned vec, bool shifted,
                               int64_t blocksPerMultiprocessor,
                               int64_t staticBytes) {
  if (!target.rowPrefetch)
    return 0;
  Operation *anchor = group.ops.front().op;
  int64_t resident = std::max<int64_t>(
      1, target.multiprocessors * blocksPerMultiprocessor / clusterSize);
  if (rows <= resident) {
    anchor->emitRemark() << "rows not prefetched: " << rows
                         << " rows, at most one per cluster (" << resident
                         << " clusters fit at once)";
    return 0;
  }
  if (shifted) {
    anchor->emitRemark() << "rows not prefetched: a row of " << group.inner
                         << " elements is not a multiple of the " << vec
                         << "-element vector";
    return 0;
  }
  bool tooBig = false;
  int64_t stagingBytes = 0;
  SmallVector<StagedInput> staged = selectStagedInputs(
      group, target, numChunks, threads, vec, blocksPerMultiprocessor,
      staticBytes, stagingBytes, tooBig);
  if (staged.empty()) {
    anchor->emitRemark()
        << "rows not prefetched: "
        << (tooBig ? "a block's slice of an input does not fit in its share "
                     "of shared memory"
                   : "no input is read along the row");
    return 0;
  }
  return resident;
}

/// Blocks each of `rows` rows of `chunksPerRow` vector chunks is split over
/// when a block per row would leave at least half of the multiprocessors
/// idle: as many as give every multiprocessor two blocks (decode 64x8192
/// bf16: 2.3 us by graph replay against 2.4 with one; run 18.5), within the
/// target's cluster limit, each with at least a warp of chunks. 1: not
/// spread.
static int64_t spreadFewRows(int64_t rows, int64_t chunksPerRow,
                             const KernelTargetInfo &target) {
  if (rows < 1 || target.maxClusterSize < 2 ||
      rows * 2 > (int64_t)target.multiprocessors)
    return 1;
  return std::max<int64_t>(
      1, std::min<int64_t>({(int64_t)target.maxClusterSize,
                            2 * (int64_t)target.multiprocessors / rows,
                            chunksPerRow / (int64_t)target.warpSize}));
}

FailureOr<Attribute> kf::selectRowStrategy(const Group &group,
                                           const KernelTargetInfo &target,
                                           std::string &why) {
  MLIRContext *ctx = group.ops.front().op.getContext();
  OpBuilder b(ctx);
  // Rows that are the points of the contiguous dim (a normalization over
  // a non-innermost dim, interchanged): side by side in each block.
  if (!group.hasColumnReduce() && isLaidOutAcrossRows(group)) {
    std::string whyNot;
    FailureOr<Attribute> s =
        selectInterleavedRowStrategy(group, target, whyNot);
    if (succeeded(s))
      return s;
    group.ops.front().op.emitRemark()
        << "rows laid out across the contiguous dim not interleaved: "
        << whyNot;
  }
  unsigned vec = chooseVectorWidth(group, target);
  int64_t rows = group.numRows();
  // Rows whose length is not a multiple of the vector width: shifted chunks
  // keep 16-byte accesses (partial chunks at the row ends are masked; an
  // aligned chunk that would reach past a buffer's end is read lane by
  // lane).
  unsigned wide =
      chooseVectorWidth(group, target, /*rowsMayBeMisaligned=*/true);
  bool shifted = false;
  // (Column partials accumulate each thread's columns over rows: chunk
  // boundaries must not move with the row.)
  if (wide > vec && group.inner > (int64_t)wide && !group.hasColumnReduce()) {
    vec = wide;
    shifted = true;
  }
  int64_t chunksPerRow = shifted ? llvm::divideCeil(group.inner + vec - 1, vec)
                                 : group.inner / vec;
  // Aim for `rowChunksPerThread` chunks per thread, threads a multiple of
  // the warp size.
  int64_t threads = llvm::divideCeil(chunksPerRow, target.rowChunksPerThread);
  threads = llvm::alignTo(threads, target.warpSize);
  threads =
      std::clamp<int64_t>(threads, target.warpSize, target.maxThreadsPerBlock);
  int64_t numChunks = llvm::divideCeil(chunksPerRow, threads);
  // A row too long for one block's registers is split over the blocks of a
  // cluster, each holding a slice of whole chunks per thread; their totals
  // meet in distributed shared memory, so the row is read from DRAM once.
  int64_t clusterSize = 1;
  int64_t blocksPerMultiprocessor = 1;
  // A group that writes only row scalars, its reductions in one walk over
  // the row (a sum, or log-sum-exp's maximum and sum of exp(v - max)
  // online), streams the row: no block needs it on chip, so it is read
  // once with every access 16 bytes wide and no cluster exchange. Rows
  // enough for four blocks per multiprocessor keep the waves' tail short
  // (fewer rows are spread over clusters instead). Rows not a multiple of
  // the vector stream through chunks shifted to the buffers' alignment
  // (else they keep the cluster's shifted chunks).
  std::optional<StreamedPasses> passes;
  if (numChunks * vec > target.rowRegisterElements &&
      !group.hasColumnReduce() && !hasRowShapedResults(group) &&
      rows >= 4 * (int64_t)target.multiprocessors &&
      (passes = planStreamedPasses(group, /*online=*/true))
              ->reductionPasses == 1 &&
      succeeded(getExchangeType(b, group, target, why))) {
    StreamedRowStrategyAttr streamed =
        selectStreamedRowStrategy(group, target, &*passes);
    // (Rows that need shifted chunks stream only with them.)
    if (!shifted || streamed.getShifted()) {
      group.ops.front().op.emitRemark()
          << "row of " << group.inner
          << " elements streamed in one pass: the group writes row scalars "
             "only, so no block holds the row"
          << (streamed.getShifted()
                  ? " (chunks shifted to the buffers' alignment)"
                  : "");
      return Attribute(streamed);
    }
  }
  if (numChunks * vec > target.rowRegisterElements) {
    if (group.hasColumnReduce()) {
      why = "a row of " + std::to_string(group.inner) +
            " elements does not fit in one block's registers (column "
            "partials need each row in one block)";
      return failure();
    }
    int64_t maxChunks = std::max<int64_t>(1, target.rowRegisterElements / vec);
    // Blocks of `clusterBlockThreads` (two per multiprocessor) where the
    // cluster limit allows, else of the largest size.
    int64_t blockThreads = target.clusterBlockThreads;
    clusterSize = llvm::divideCeil(chunksPerRow, maxChunks * blockThreads);
    if (clusterSize > (int64_t)target.maxClusterSize) {
      blockThreads = target.maxThreadsPerBlock;
      clusterSize = llvm::divideCeil(chunksPerRow, maxChunks * blockThreads);
    }
    if (clusterSize > (int64_t)target.maxClusterSize) {
      group.ops.front().op.emitRemark()
          << "row of " << group.inner << " elements streamed in tiles: "
          << "holding it in registers takes a cluster of " << clusterSize
          << " blocks, more than max-cluster-size (" << target.maxClusterSize
          << ")";
      if (failed(getExchangeType(b, group, target, why)))
        return failure();
      return Attribute(selectStreamedRowStrategy(group, target));
    }
    blocksPerMultiprocessor =
        std::max<int64_t>(1, target.maxThreadsPerBlock / blockThreads);
    // Balance the slices: fewest chunks per thread, then fewest threads.
    numChunks = llvm::divideCeil(chunksPerRow, clusterSize * blockThreads);
    threads =
        llvm::alignTo(llvm::divideCeil(chunksPerRow, clusterSize * numChunks),
                      target.warpSize);
    threads = std::clamp<int64_t>(threads, target.warpSize, blockThreads);
  }
  // Few rows (decode: a batch of a few tokens) would keep most
  // multiprocessors idle with a block per row, and one block
  // pulls its slice through one multiprocessor's load units: each row is
  // split over a cluster of `spread` blocks instead, which combine their
  // partial reductions through distributed shared memory.
  // (Rows already split over a cluster keep their form: its slices may be
  // staged in shared memory or prefetched, which spreading would undo.)
  // Nor do rows whose chunks are shifted to the buffers' alignment: split
  // over a cluster, their accesses are not proven 16-byte aligned.
  int64_t spread = clusterSize == 1 && !shifted && !group.hasColumnReduce()
                       ? spreadFewRows(rows, chunksPerRow, target)
                       : 1;
  bool spreadRows = false;
  if (spread > clusterSize) {
    int64_t perBlock = llvm::divideCeil(chunksPerRow, spread);
    int64_t t = std::clamp<int64_t>(
        llvm::alignTo(llvm::divideCeil(perBlock, target.rowChunksPerThread),
                      target.warpSize),
        target.warpSize, target.maxThreadsPerBlock);
    int64_t n = llvm::divideCeil(perBlock, t);
    t = std::clamp<int64_t>(
        llvm::alignTo(llvm::divideCeil(perBlock, n), target.warpSize),
        target.warpSize, target.maxThreadsPerBlock);
    // As many blocks as the slices need (the warp granularity may make
    // them longer than perBlock): none of them is past the row's end.
    int64_t blocks = llvm::divideCeil(chunksPerRow, t * n);
    if (blocks > 1) {
      group.ops.front().op.emitRemark()
          << rows << " rows spread over clusters of " << blocks
          << " blocks: a block per row would keep "
          << target.multiprocessors - rows << " of "
          << target.multiprocessors << " multiprocessors idle";
      spreadRows = true;
      clusterSize = blocks;
      blocksPerMultiprocessor = 1;
      threads = t;
      numChunks = n;
    }
  }
  FailureOr<MemRefType> exchange = getExchangeType(b, group, target, why);
  if (failed(exchange))
    return failure();
  // Part of each block's slice in shared memory (row-shared-elements per
  // thread, copied in with cp.async when the block starts and read back in
  // one pass per reduction and one for the results): fewer blocks hold a
  // row, so clusters are smaller.
  int64_t sharedChunks = 0;
  int64_t sliceBytes = 0;
  // (Persistent clusters stage the next row instead: row-prefetch, when
  // asked for, takes the place of this.)
  if (clusterSize > 1 && !spreadRows && target.rowSharedElements > 0 &&
      !target.rowPrefetch) {
    int64_t maxChunks = std::max<int64_t>(1, target.rowRegisterElements / vec);
    int64_t extra = std::max<int64_t>(1, target.rowSharedElements / vec);
    int64_t blockThreads = target.clusterBlockThreads;
    // Blocks of half that size (four per multiprocessor hide one another's
    // reductions and exchanges better) where the cluster stays within the
    // portable 8 blocks: softmax over rows of 65536 f32 measured 91.3% of
    // copy in clusters of 4 blocks of 256 threads against 83.1% in clusters
    // of 2 of 512 (RMSNorm 93.1 against 94.5; run10 r4). Beyond 8 blocks
    // fewer of the multiprocessors' slots hold a whole cluster (rows of
    // 262144: 28 clusters of 16 x 256 fit at once, 448 of 528 slots,
    // against 30 of 8 x 512, 240 of 264), which only a math function of
    // each element (softmax's exp) repays:
    // softmax 88.1% of copy against 84.6, RMSNorm 81.8 against 89.2
    // (run11 r2).
    int64_t half = llvm::alignTo(blockThreads / 2, target.warpSize);
    int64_t halfCluster =
        llvm::divideCeil(chunksPerRow, (maxChunks + extra) * half);
    if (half < blockThreads && halfCluster <= (int64_t)target.maxClusterSize &&
        (halfCluster <= (int64_t)target.portableClusterSize ||
         hasTranscendentals(group)))
      blockThreads = half;
    int64_t smaller =
        llvm::divideCeil(chunksPerRow, (maxChunks + extra) * blockThreads);
    // Worth it when fewer threads then hold a row (in a cluster the target
    // allows).
    if (smaller * blockThreads < clusterSize * threads &&
        smaller <= (int64_t)target.maxClusterSize) {
      int64_t total = llvm::divideCeil(chunksPerRow, smaller * blockThreads);
      int64_t t = std::clamp<int64_t>(
          llvm::alignTo(llvm::divideCeil(chunksPerRow, smaller * total),
                        target.warpSize),
          target.warpSize, blockThreads);
      int64_t perMultiprocessor =
          std::max<int64_t>(1, target.maxThreadsPerBlock / blockThreads);
      int64_t inRegisters = std::min(maxChunks, total);
      int64_t staticBytes =
          blockStaticBytes(*exchange, t > (int64_t)target.warpSize, 1);
      bool tooBig = false;
      SmallVector<StagedInput> in = selectStagedInputs(
          group, target, total - inRegisters, t, vec, perMultiprocessor,
          staticBytes, sliceBytes, tooBig);
      Operation *anchor = group.ops.front().op;
      if (shifted)
        anchor->emitRemark()
            << "row slices kept in registers: a row of " << group.inner
            << " elements is not a multiple of the " << vec
            << "-element vector";
      else if (in.empty())
        anchor->emitRemark()
            << "row slices kept in registers: "
            << (tooBig ? "a block's share of shared memory does not hold "
                         "the rest of its slice"
                       : "no input is read along the row");
      else {
        clusterSize = smaller;
        numChunks = inRegisters;
        sharedChunks = total - inRegisters;
        threads = t;
        blocksPerMultiprocessor = perMultiprocessor;
      }
    }
  }
  // Few long rows: the clusters above would run two waves, each block
  // loading its whole slice before it reduces and stores, so the second
  // wave is a whole round of its own. Streamed over clusters of as few
  // blocks as fill the multiprocessors, the loads stay in flight through
  // every walk (RMSNorm over 256 bf16 rows of 65536: 22.9 us against 30.1
  // in clusters of 4, torch.compile 28.6; run 35).
  if (clusterSize > 1 && !spreadRows && !shifted &&
      !target.rowPrefetch) {
    std::string whyNot;
    int64_t slots = (int64_t)target.multiprocessors * blocksPerMultiprocessor;
    FailureOr<StreamedRowStrategyAttr> streamed = selectFewRowsStreamedStrategy(
        group, target, rows * clusterSize, slots, whyNot);
    if (succeeded(streamed)) {
      group.ops.front().op.emitRemark()
          << rows << " rows of " << group.inner << " elements streamed"
          << (streamed->getCluster() > 1
                  ? " over clusters of " +
                        std::to_string(streamed->getCluster()) + " blocks"
                  : std::string(" a block per row"))
          << ": held on chip, clusters of " << clusterSize << " would run "
          << rows * clusterSize << " blocks in " << slots << " slots";
      return Attribute(*streamed);
    }
  }
  int64_t persistentClusters = 0;
  if (clusterSize > 1 && !spreadRows && sharedChunks == 0)
    // Totals of two rows (see RowCluster).
    persistentClusters = planRowPrefetch(
        group, target, rows, clusterSize, threads, numChunks, vec, shifted,
        blocksPerMultiprocessor,
        blockStaticBytes(*exchange, threads > (int64_t)target.warpSize, 2));
  bool online = false;
  if (clusterSize > 1)
    for (size_t i = 0; i < group.ops.size() && !online; ++i)
      online = group.ops[i].role == RowRole::Reduce &&
               matchOnlineSoftmax(group, i).has_value();
  // Short rows (a warp per row): several rows per block, so that a
  // multiprocessor's block slots (32 on sm_80/sm_90) do not cap it at half
  // its threads; as many as divide the rows and leave two blocks per
  // multiprocessor.
  int64_t rowsPerBlock = 1;
  // Short rows where a warp per row leaves each thread one chunk narrower
  // than the target's widest access (bf16 rows of 128 with f32 statistics:
  // 4 lanes of 2 bytes): a power-of-two part of a warp per row, each thread
  // with rowChunksPerThread chunks in flight, as many rows as fill a block
  // of blockSize threads (whole warps) where the rows divide and leave two
  // blocks per multiprocessor. Decode attention's bf16 scores (rows of
  // 128) went from 2.2 to 3.1 TB/s, RMSNorm over 131072 bf16 rows of 128
  // from 72.3 to 76.2% of copy; rows whose threads already hold a 16-byte
  // chunk or several lost (softmax over f32 rows of 128: 85.1 -> 80.4,
  // RMSNorm over bf16 rows of 512: 85.5 -> 83.6; run 22.2).
  int64_t narrowest = target.vectorBytes;
  for (const GroupOp &g : group.ops)
    for (auto [operand, contiguous] : getRowAccesses(g))
      if (contiguous)
        narrowest = std::min(
            narrowest, getElementBytes(cast<MemRefType>(operand->get().getType())
                                           .getElementType()));
  // As few threads as hold the row at rowChunksPerThread chunks each, but
  // enough that a row's threads cover a cache line in each warp-wide load
  // (16 threads of 8 bytes for bf16 rows with f32 statistics): with 4
  // threads of 8 chunks a warp's load touched 8 lines of 32 bytes.
  // Measured on rows of 128 bf16 (run 27, 262144 x 128 QK-norm and
  // 131072 x 128 RMSNorm): 4 threads x 8 chunks 71.3% / 76.4% of copy,
  // 8 x 4 92.3 / 84.5, 16 x 2 95.2 / 85.0, a warp of 1 chunk 95.1 / 71.5.
  int64_t lineThreads = (int64_t)llvm::PowerOf2Ceil(llvm::divideCeil(
      (int64_t)target.cacheLineBytes, vec * narrowest));
  int64_t subThreads = std::max<int64_t>(
      lineThreads, (int64_t)llvm::PowerOf2Ceil(llvm::divideCeil(
                       chunksPerRow, target.rowChunksPerThread)));
  // The most rows per block (of `candidates`, largest first) that leave
  // two blocks per multiprocessor, whether or not they divide the rows:
  // the last block's slots past the last row load it again and store
  // nothing (131071 rows took a block of one warp each, half of a
  // multiprocessor's threads).
  auto pickRowsPerBlock = [&](ArrayRef<int64_t> candidates,
                              int64_t rowThreads) -> int64_t {
    for (int64_t r : candidates)
      if (llvm::divideCeil(rows, r) >= 2 * (int64_t)target.multiprocessors &&
          r * rowThreads <= (int64_t)target.maxThreadsPerBlock)
        return r;
    return 1;
  };
  if (clusterSize == 1 && threads == (int64_t)target.warpSize && !shifted &&
      !group.hasColumnReduce() && numChunks == 1 &&
      vec * narrowest < (int64_t)target.vectorBytes &&
      subThreads < (int64_t)target.warpSize) {
    SmallVector<int64_t> candidates;
    for (int64_t r = target.blockSize / subThreads;
         r * subThreads >= (int64_t)target.warpSize; r /= 2)
      candidates.push_back(r);
    if (int64_t r = pickRowsPerBlock(candidates, subThreads); r > 1) {
      rowsPerBlock = r;
      threads = subThreads;
      numChunks = llvm::divideCeil(chunksPerRow, subThreads);
    }
  }
  if (clusterSize == 1 && threads == (int64_t)target.warpSize &&
      !group.hasColumnReduce())
    rowsPerBlock = pickRowsPerBlock({8, 4, 2}, threads);
  ColumnPartialsPlan partials;
  if (group.hasColumnReduce()) {
    // (One block per row here: no cluster, spread or shifted chunks.)
    FailureOr<ColumnPartialsPlan> plan = planColumnPartials(
        group, target, chunksPerRow, vec,
        [&](int64_t t) {
          return blockStaticBytes(*exchange, t > (int64_t)target.warpSize, 0);
        },
        why);
    if (failed(plan))
      return failure();
    partials = *plan;
    threads = partials.threads;
    numChunks = partials.chunks;
    rowsPerBlock = partials.rowsPerBlock;
    Operation *anchor = group.ops.front().op;
    anchor->emitRemark() << "column reductions fused with the row kernel: "
                         << partials.blocks
                         << " blocks walk the rows and store column partials"
                         << (partials.shared ? " (accumulators in shared memory)"
                                             : "")
                         << (partials.prefetchRows
                                 ? ", prefetching " +
                                       std::to_string(partials.prefetchRows) +
                                       " rows ahead"
                                 : std::string())
                         << " (" << threads << " threads per row, "
                         << rowsPerBlock << " rows per block)";
  }
  // (Persistent clusters and column partials walk rows in steps of the
  // grid: their order is not the blocks'.)
  DenseI64ArrayAttr order;
  if (persistentClusters == 0 && partials.blocks == 0)
    order = selectBlockOrder(group, target);
  return Attribute(RowStrategyAttr::get(
      ctx, vec, shifted, threads, numChunks, clusterSize, sharedChunks,
      blocksPerMultiprocessor, persistentClusters, online, rowsPerBlock,
      /*interleaved=*/false, partials.blocks, partials.shared,
      partials.prefetchRows, order, /*after_last_block=*/false));
}

FailureOr<MemRefType>
kf::checkRowBasics(const Group &group, Attribute s, int64_t vec, bool shifted,
                   int64_t threads, StringRef unalignedHint,
                   const KernelTargetInfo &target, Operation *anchor) {
  auto fail = [&] { return emitCannotHonour(anchor, s); };
  if (group.inner < 1 || (!group.hasReduce() && !group.hasColumnReduce()))
    return fail() << "the group has no reduction over a row (use "
                     "#memopt.elementwise)",
           failure();
  // (Accesses along the row are `vector` elements wide; row scalars are
  // read and written one at a time.)
  if (!isVectorAllowed(vec, getWidestRowElementBytes(group), target))
    return fail() << "vector must be a power of two of at most "
                  << target.vectorBytes
                  << " bytes of the widest element read or written along "
                     "the row ("
                  << getWidestRowElementBytes(group) << " bytes)",
           failure();
  if (!shifted && group.inner % vec != 0)
    return fail() << "a row of " << group.inner
                  << " elements is not a multiple of the vector"
                  << unalignedHint,
           failure();
  if (!isWholeWarps(threads, target))
    return fail() << "threads must be a multiple of " << target.warpSize
                  << " up to " << target.maxThreadsPerBlock,
           failure();
  std::string why;
  OpBuilder b(anchor->getContext());
  FailureOr<MemRefType> exchange = getExchangeType(b, group, target, why);
  if (failed(exchange))
    return fail() << why, failure();
  return exchange;
}

LogicalResult kf::checkRowStrategy(const Group &group, RowStrategyAttr s,
                                   const KernelTargetInfo &target,
                                   Operation *anchor) {
  auto fail = [&] { return emitCannotHonour(anchor, s); };
  bool interleaved = s.getInterleaved();
  if (s.getAfterLastBlock() &&
      (group.numRows() != 1 || interleaved || s.getCluster() != 1 ||
       s.getRowsPerBlock() != 1 || s.getPersistentClusters() != 0 ||
       s.getColumnPartials() != 0 || s.getBlockOrder()))
    return fail() << "after_last_block takes one row in one block (no "
                     "cluster, interleaved rows, persistent clusters, column "
                     "partials or block order)";
  // Interleaved rows: `vector` rows a thread, one element of each along
  // the row.
  int64_t rowsPerThread = interleaved ? s.getVector() : 1;
  int64_t vec = interleaved ? 1 : s.getVector();
  int64_t threads = s.getThreads();
  int64_t rowsPerBlock = s.getRowsPerBlock();
  if (interleaved &&
      (group.outer.empty() || rowsPerThread < 1 ||
       !llvm::isPowerOf2_64(rowsPerThread) ||
       rowsPerBlock % rowsPerThread != 0 ||
       group.outer.back() % rowsPerThread != 0 ||
       !isVectorAllowed(rowsPerThread, getWidestRowElementBytes(group),
                        target)))
    return fail() << "interleaved rows take a vector (rows a thread) that is "
                     "a power of two dividing rows_per_block and the last "
                     "outer dim's "
                  << (group.outer.empty() ? 0 : group.outer.back())
                  << " points, of at most "
                  << target.vectorBytes << " bytes";
  // Interleaved rows: whole warps per block, not per row.
  // So are rows held by part of a warp each (a power of two of threads).
  bool subWarp = !interleaved && threads < (int64_t)target.warpSize;
  FailureOr<MemRefType> exchange = checkRowBasics(
      group, s, vec, s.getShifted(),
      interleaved || subWarp ? threads * rowsPerBlock / rowsPerThread
                             : threads,
      " (use shifted = true)", target, anchor);
  if (failed(exchange))
    return failure();
  if (rowsPerThread > 1 && getElementBytes(exchange->getElementType()) > 4)
    return fail() << "several interleaved rows a thread need partials of at "
                     "most 4 bytes";
  if (subWarp && (threads < 1 || !llvm::isPowerOf2_64(threads) ||
                  s.getShifted() || s.getCluster() != 1 ||
                  s.getColumnPartials() > 0))
    return fail() << "fewer threads per row than a warp's must be a power "
                     "of two, with no shifted chunks, cluster or column "
                     "partials";
  if (interleaved && (s.getShifted() || s.getSharedChunks() > 0 ||
                      s.getPersistentClusters() > 0 || s.getOnlineSoftmax()))
    return fail() << "interleaved rows take no shifted chunks, no "
                     "shared-memory staging and no online softmax";
  if (s.getBlockOrder() && (interleaved || s.getPersistentClusters() > 0 ||
                            s.getColumnPartials() > 0))
    return fail() << "block_order takes rows that are not interleaved, "
                     "persistent clusters or column partials (their blocks "
                     "walk the rows in steps of the grid)";
  if (failed(checkBlockOrder(group, s, s.getBlockOrder(), anchor)))
    return failure();
  int64_t cluster = s.getCluster();
  if (cluster < 1 || cluster > (int64_t)target.maxClusterSize)
    return fail() << "cluster must be between 1 and the target's "
                  << target.maxClusterSize;
  if (s.getChunks() < 1 || s.getSharedChunks() < 0 ||
      s.getBlocksPerMultiprocessor() < 1 || s.getPersistentClusters() < 0)
    return fail() << "chunks and blocks_per_multiprocessor must be positive";
  int64_t chunksPerRow = getChunksPerRow(group.inner, vec, s.getShifted());
  int64_t covered = cluster * (s.getChunks() + s.getSharedChunks()) * threads;
  if (covered < chunksPerRow)
    return fail() << "its chunks cover " << covered << " of the row's "
                  << chunksPerRow << " chunks";
  // Every block of a cluster holds part of the row (a block past its end
  // would enter the exchanges with no value at all).
  if (cluster > 1 && (cluster - 1) * (s.getChunks() + s.getSharedChunks()) *
                             threads >=
                         chunksPerRow)
    return fail() << "the last block of the cluster starts past the row's "
                  << chunksPerRow << " chunks";
  if (s.getOnlineSoftmax() && cluster == 1)
    return fail() << "online softmax exchanges between the blocks of a "
                     "cluster (cluster = 1)";
  // The last block's slots past the last row load it again and store
  // nothing; column partials walk whole blocks of rows.
  if (rowsPerBlock < 1 ||
      (s.getColumnPartials() > 0 && group.numRows() % rowsPerBlock != 0))
    return fail() << "rows_per_block must be positive and, with column "
                     "partials, divide the "
                  << group.numRows() << " rows";
  if (rowsPerBlock > 1 && !interleaved &&
      (cluster > 1 || s.getSharedChunks() > 0 ||
       s.getPersistentClusters() > 0 || threads > (int64_t)target.warpSize))
    return fail() << "rows_per_block > 1 needs one warp per row (threads <= "
                  << target.warpSize
                  << "), no cluster and no shared-memory staging";
  int64_t columnPartials = s.getColumnPartials();
  if (group.hasColumnReduce() != (columnPartials > 0))
    return fail() << "column_partials must be above 0 exactly when the group "
                     "has column reductions";
  if (columnPartials > 0 &&
      (cluster > 1 || s.getShifted() || s.getSharedChunks() > 0 ||
       s.getPersistentClusters() > 0 || interleaved || s.getOnlineSoftmax()))
    return fail() << "column partials need one block per row: cluster = 1, "
                     "no shifted chunks, no staging, not interleaved, no "
                     "online softmax";
  if (s.getSharedAccumulators() &&
      (columnPartials == 0 ||
       getSharedAccumulatorBytes(group, rowsPerBlock) < 0 ||
       getSharedAccumulatorBytes(group, rowsPerBlock) +
               blockStaticBytes(*exchange, threads > (int64_t)target.warpSize,
                                0) >
           (int64_t)target.sharedMemoryBytes))
    return fail() << "shared_accumulators needs column partials whose "
                     "accumulators share one type and fit in the block's "
                  << target.sharedMemoryBytes << " bytes of shared memory";
  if (s.getPrefetchRows() < 0 || s.getPrefetchRows() > 8 ||
      (s.getPrefetchRows() > 0 && columnPartials == 0))
    return fail() << "prefetch_rows must be 0 to 8, and above 0 only with "
                     "column partials";
  // (The combine kernel unrolls its reads of the partial rows.)
  if (columnPartials * rowsPerBlock > 32768)
    return fail() << "column_partials x rows_per_block is over 32768 partial "
                     "rows";
  if (columnPartials > group.numRows() / rowsPerBlock)
    return fail() << "column_partials is over the "
                  << group.numRows() / rowsPerBlock << " blocks of rows";
  int64_t blockThreads = rowsPerBlock / rowsPerThread * threads;
  if (blockThreads > (int64_t)target.maxThreadsPerBlock)
    return fail() << "rows_per_block x threads (over the rows a thread holds) "
                     "is over the target's "
                  << target.maxThreadsPerBlock << " threads per block";
  bool staging = s.getSharedChunks() > 0 || s.getPersistentClusters() > 0;
  if (s.getSharedChunks() > 0 && s.getPersistentClusters() > 0)
    return fail() << "shared_chunks and persistent_clusters exclude each "
                     "other";
  if (s.getPersistentClusters() > 0 && cluster == 1)
    return fail() << "persistent clusters need cluster > 1";
  if (s.getPersistentClusters() > group.numRows())
    return fail() << "more persistent clusters than the " << group.numRows()
                  << " rows";
  // Two blocks of the largest size fill a multiprocessor's threads (2048
  // on sm_80 and sm_90).
  if (blockThreads * s.getBlocksPerMultiprocessor() >
      2 * (int64_t)target.maxThreadsPerBlock)
    return fail() << "blocks_per_multiprocessor x threads is over the "
                  << 2 * target.maxThreadsPerBlock
                  << " threads of a multiprocessor";
  if (staging && s.getShifted())
    return fail() << "rows staged in shared memory must be a multiple of "
                     "the vector (shifted = false)";
  if (!staging)
    return success();
  bool tooBig = false;
  int64_t bytes = 0;
  bool persistent = s.getPersistentClusters() > 0;
  int64_t staticBytes = blockStaticBytes(
      *exchange, threads > (int64_t)target.warpSize, persistent ? 2 : 1);
  SmallVector<StagedInput> staged = selectStagedInputs(
      group, target, persistent ? s.getChunks() : s.getSharedChunks(), threads,
      vec, s.getBlocksPerMultiprocessor(), staticBytes, bytes, tooBig);
  if (staged.empty())
    return fail() << (tooBig
                          ? "a block's share of shared memory ("
                            "blocks_per_multiprocessor = " +
                                std::to_string(s.getBlocksPerMultiprocessor()) +
                                ") does not hold its staged chunks"
                          : "no input is read along the row");
  return success();
}
