//===- RowStrategy.cpp - row kernels: a block or cluster per row -*- C++
//-*-===//
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

#include "EmitUtils.h"
#include "Strategies.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <limits>

using namespace mlir;
using namespace mlir::memopt;
using namespace mlir::memopt::kf;

namespace {
/// Softmax's two reductions in one cluster exchange (online softmax): a
/// maximum M of the row, then the sum of exp(v - M) computed by one
/// elementwise op. Each block reduces its slice with its own maximum m_b;
/// the blocks then exchange (m_b, s_b) once and combine M = max m_b and
/// S = sum s_b * exp(m_b - M), and scale their exp values by exp(m_b - M).
struct OnlineSoftmax {
  /// Indices in the group of the exp op and of the sum.
  size_t exp, sum;
};
} // namespace

/// Whether the arg of `op`'s body for `operand` is used only as
/// `exp(v - arg)` whose result is the op's only yielded value, `v` being
/// `op`'s input read from `valuesRoot` through `valuesMap`.
static bool isExpOfDifference(linalg::GenericOp op, OpOperand &operand,
                              Value valuesRoot, AffineMap valuesMap) {
  if (op.getNumDpsInits() != 1)
    return false;
  BlockArgument m = op.getMatchingBlockArgument(&operand);
  if (!m.hasOneUse())
    return false;
  auto sub = dyn_cast<arith::SubFOp>(*m.getUsers().begin());
  if (!sub || sub.getRhs() != m || sub.getLhs() == m || !sub->hasOneUse())
    return false;
  auto v = dyn_cast<BlockArgument>(sub.getLhs());
  if (!v || v.getOwner() != op.getBody() ||
      v.getArgNumber() >= op.getNumDpsInputs())
    return false;
  OpOperand *vIn = op.getDpsInputOperand(v.getArgNumber());
  if (getRootBuffer(vIn->get()) != valuesRoot ||
      op.getMatchingIndexingMap(vIn) != valuesMap)
    return false;
  auto exp = dyn_cast<math::ExpOp>(*sub->getUsers().begin());
  if (!exp || !exp->hasOneUse())
    return false;
  auto yield = dyn_cast<linalg::YieldOp>(*exp->getUsers().begin());
  return yield && yield.getNumOperands() == 1;
}

/// Whether `op`'s body is exactly `yield combiner(in, acc)` over its one
/// input.
template <typename CombinerOp>
static bool isPlainReduction(linalg::GenericOp op) {
  Block *body = op.getBody();
  if (op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      body->getOperations().size() != 2)
    return false;
  auto comb = dyn_cast<CombinerOp>(body->front());
  if (!comb)
    return false;
  Value in = body->getArgument(0), acc = body->getArgument(1);
  bool args = (comb.getLhs() == in && comb.getRhs() == acc) ||
              (comb.getLhs() == acc && comb.getRhs() == in);
  return args && body->getTerminator()->getOperand(0) == comb.getResult();
}

/// Matches the online softmax form at reduction `i` of `group`.
static std::optional<OnlineSoftmax> matchOnlineSoftmax(const Group &group,
                                                       size_t i) {
  const GroupOp &max = group.ops[i];
  if (max.kind != arith::AtomicRMWKind::maxnumf &&
      max.kind != arith::AtomicRMWKind::maximumf)
    return std::nullopt;
  auto isF32Acc = [](const GroupOp &g) {
    return g.op.getBody()
        ->getArgument(g.op.getNumDpsInputs())
        .getType()
        .isF32();
  };
  if (!isF32Acc(max) || !(isPlainReduction<arith::MaxNumFOp>(max.op) ||
                          isPlainReduction<arith::MaximumFOp>(max.op)))
    return std::nullopt;
  Value maxRoot = getRootBuffer(max.op.getDpsInitsMutable()[0].get());
  // The exp op must subtract the maximum from the values it was taken of.
  OpOperand *maxIn = max.op.getDpsInputOperand(0);
  Value valuesRoot = getRootBuffer(maxIn->get());
  AffineMap valuesMap = max.op.getMatchingIndexingMap(maxIn);
  auto reads = [](const GroupOp &g, Value root) {
    return llvm::any_of(g.op->getOpOperands(), [&](OpOperand &o) {
      return getRootBuffer(o.get()) == root &&
             (g.op.isDpsInput(&o) ||
              !g.op.getMatchingBlockArgument(&o).use_empty());
    });
  };
  auto writes = [](const GroupOp &g, Value root) {
    return llvm::any_of(g.op.getDpsInitsMutable(), [&](OpOperand &o) {
      return getRootBuffer(o.get()) == root;
    });
  };
  std::optional<size_t> exp;
  Value expRoot;
  // Whether the buffer still holds the maximum (softmax reuses it for the
  // sum: a fill in between overwrites it).
  bool maxLive = true;
  for (size_t k = i + 1; k < group.ops.size(); ++k) {
    const GroupOp &g = group.ops[k];
    bool readsMax = maxLive && reads(g, maxRoot);
    if (g.role == RowRole::Reduce) {
      // The sum of the exp values, from zero or any initial value.
      if (!exp || g.kind != arith::AtomicRMWKind::addf || !isF32Acc(g) ||
          !isPlainReduction<arith::AddFOp>(g.op) ||
          getRootBuffer(g.op.getDpsInputOperand(0)->get()) != expRoot ||
          readsMax)
        return std::nullopt;
      return OnlineSoftmax{*exp, k};
    }
    if (!readsMax) {
      // Other work in between must not see or replace a local exp value.
      if (exp && (reads(g, expRoot) || writes(g, expRoot)))
        return std::nullopt;
      if (writes(g, maxRoot))
        maxLive = false;
      continue;
    }
    if (exp || g.role != RowRole::Vector || writes(g, maxRoot))
      return std::nullopt;
    for (OpOperand *in : g.op.getDpsInputOperands())
      if (getRootBuffer(in->get()) == maxRoot &&
          !isExpOfDifference(g.op, *in, valuesRoot, valuesMap))
        return std::nullopt;
    exp = k;
    expRoot = getRootBuffer(g.op.getDpsInitsMutable()[0].get());
  }
  return std::nullopt;
}

/// Emits online softmax `online` whose maximum is reduction `i` of `group`
/// (already emitted up to its thread partial `partial`) through the sum,
/// exchanging the block's maximum and sum in slots `slot` and `slot + 1`.
/// A slice partly in shared memory passes `sharedPass` (one pass over its
/// chunks there, returning the thread partial of a reduction) and the
/// elementwise ops those passes replay (`vectorOps`): the exp values there
/// are recomputed by later passes, from the row's maximum.
static void emitOnlineSoftmax(
    OpBuilder &b, EmitState &st, const Group &group, size_t i,
    const OnlineSoftmax &online, Value partial, unsigned numChunks,
    unsigned threads, const KernelTargetInfo &target, Value tid, Value smem,
    const RowCluster &cluster, unsigned slot, VectorOpList *vectorOps = nullptr,
    function_ref<Value(const GroupOp *)> sharedPass = nullptr) {
  Location loc = st.loc;
  const GroupOp &g = group.ops[i];
  int64_t clusterSize = cluster.size;
  // The block's maximum (with the output's initial value), the exp values
  // and their sum from it, then one exchange for both.
  Value maxRoot = getRootBuffer(g.op.getDpsInitsMutable()[0].get());
  finishReduction(b, st, g, partial, threads, target, tid, smem, slot);
  Value localMax = st.scalarValues.lookup(maxRoot);
  // A slice that is -inf throughout has maximum -inf: its exp values are
  // taken from 0 instead (they are 0, and so is its sum), where
  // exp(-inf - -inf) would make the row NaN.
  Value ninf = arith::ConstantOp::create(
      b, loc, b.getF32FloatAttr(-std::numeric_limits<float>::infinity()));
  auto isNegInf = [&](Value m) {
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, m, ninf);
  };
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
  Value localUsed =
      arith::SelectOp::create(b, loc, isNegInf(localMax), zero, localMax);
  st.scalarValues[maxRoot] = localUsed;
  bool maxOverwritten = false;
  size_t firstReplayed = vectorOps ? vectorOps->size() : 0;
  for (size_t k = i + 1; k < online.sum; ++k) {
    Value unused;
    if (vectorOps && group.ops[k].role == RowRole::Vector)
      vectorOps->push_back({&group.ops[k], st.scalarValues});
    emitOp(b, st, group.ops[k], numChunks, unused);
    for (OpOperand &out : group.ops[k].op.getDpsInitsMutable())
      maxOverwritten |= getRootBuffer(out.get()) == maxRoot;
  }
  const GroupOp &sum = group.ops[online.sum];
  Value sumPartial;
  emitOp(b, st, sum, numChunks, sumPartial);
  if (sharedPass)
    sumPartial =
        arith::getReductionOp(sum.kind, b, loc, sumPartial, sharedPass(&sum));
  Value localSum = blockReduce(b, loc, sumPartial, sum.kind, threads,
                               target.warpSize, tid, smem, slot + 1);
  SmallVector<SmallVector<Value>> all = exchangeTotals(
      b, loc, tid, cluster, {{slot, localMax}, {slot + 1, localSum}});
  ArrayRef<Value> maxes = all[0], sums = all[1];
  Value rowMax = maxes[0];
  for (int64_t r = 1; r < clusterSize; ++r)
    rowMax = arith::getReductionOp(g.kind, b, loc, rowMax, maxes[r]);
  // exp(m - M), 0 for a block whose maximum is -inf (its values are 0).
  auto scaleTo = [&](Value m) -> Value {
    Value e =
        math::ExpOp::create(b, loc, arith::SubFOp::create(b, loc, m, rowMax));
    return arith::SelectOp::create(b, loc, isNegInf(m), zero, e);
  };
  Value rowSum;
  for (int64_t r = 0; r < clusterSize; ++r) {
    Value part = arith::MulFOp::create(b, loc, sums[r], scaleTo(maxes[r]));
    rowSum =
        rowSum ? arith::AddFOp::create(b, loc, rowSum, part).getResult() : part;
  }
  // The exp values as if computed from the row's maximum.
  Value scale = scaleTo(localMax);
  Value expRoot =
      getRootBuffer(group.ops[online.exp].op.getDpsInitsMutable()[0].get());
  for (Value &lane : st.vecValues[expRoot])
    lane = arith::MulFOp::create(b, loc, lane, scale);
  // Later passes over the chunks in shared memory take the exp values from
  // the row's maximum directly (exp(v - M) = exp(v - m) * exp(m - M)), 0 in
  // place of an M of -inf as for the register lanes (whose scale is then
  // 0). Only the ops that read the block's maximum change: another op in
  // between may read the buffer after a fill replaced the maximum.
  if (vectorOps) {
    Value rowUsed =
        arith::SelectOp::create(b, loc, isNegInf(rowMax), zero, rowMax);
    for (auto &entry : llvm::drop_begin(*vectorOps, firstReplayed)) {
      auto it = entry.second.find(maxRoot);
      if (it != entry.second.end() && it->second == localUsed)
        it->second = rowUsed;
    }
  }
  Value sumRoot = getRootBuffer(sum.op.getDpsInitsMutable()[0].get());
  st.scalarValues[sumRoot] =
      arith::AddFOp::create(b, loc, getReductionInit(b, st, sum), rowSum);
  if (!maxOverwritten && sumRoot != maxRoot)
    st.scalarValues[maxRoot] = rowMax;
}

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
    for (OpOperand &operand : g.op->getOpOperands()) {
      auto mt = dyn_cast<MemRefType>(operand.get().getType());
      AffineMap m = g.op.getMatchingIndexingMap(&operand);
      if (mt && m.getNumResults() > 0 &&
          m.getResults().back() ==
              getAffineDimExpr(g.op.getNumLoops() - 1, g.op.getContext()))
        narrowest =
            std::min(narrowest, getElementBytes(mt.getElementType()));
    }
  int64_t subThreads = (int64_t)llvm::PowerOf2Ceil(
      llvm::divideCeil(chunksPerRow, target.rowChunksPerThread));
  if (clusterSize == 1 && threads == (int64_t)target.warpSize && !shifted &&
      !group.hasColumnReduce() && numChunks == 1 &&
      vec * narrowest < (int64_t)target.vectorBytes &&
      subThreads < (int64_t)target.warpSize) {
    for (int64_t r = target.blockSize / subThreads;
         r * subThreads >= (int64_t)target.warpSize; r /= 2)
      if (rows % r == 0 && rows / r >= 2 * (int64_t)target.multiprocessors) {
        rowsPerBlock = r;
        threads = subThreads;
        numChunks = llvm::divideCeil(chunksPerRow, subThreads);
        break;
      }
  }
  if (clusterSize == 1 && threads == (int64_t)target.warpSize) {
    for (int64_t r : {8, 4, 2})
      if (rows % r == 0 && rows / r >= 2 * (int64_t)target.multiprocessors &&
          r * threads <= (int64_t)target.maxThreadsPerBlock) {
        rowsPerBlock = r;
        break;
      }
    if (rowsPerBlock == 1 && rows >= 4 * (int64_t)target.multiprocessors)
      group.ops.front().op.emitRemark()
          << "one row per block of " << threads << " threads: " << rows
          << " rows are not a multiple of 2";
  }
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
  return Attribute(RowStrategyAttr::get(
      ctx, vec, shifted, threads, numChunks, clusterSize, sharedChunks,
      blocksPerMultiprocessor, persistentClusters, online, rowsPerBlock,
      /*interleaved=*/false, partials.blocks, partials.shared,
      partials.prefetchRows));
}

FailureOr<MemRefType>
kf::checkRowBasics(const Group &group, Attribute s, int64_t vec, bool shifted,
                   int64_t threads, StringRef unalignedHint,
                   const KernelTargetInfo &target, Operation *anchor) {
  auto fail = [&] { return emitCannotHonour(anchor, s); };
  if (group.inner < 1 || !group.hasReduce())
    return fail() << "the group has no reduction over a row (use "
                     "#memopt.elementwise)",
           failure();
  if (!isVectorAllowed(vec, getWidestElementBytes(group), target))
    return fail() << "vector must be a power of two of at most "
                  << target.vectorBytes << " bytes of the widest element ("
                  << getWidestElementBytes(group) << " bytes)",
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
  int64_t vec = s.getVector();
  int64_t threads = s.getThreads();
  bool interleaved = s.getInterleaved();
  // Interleaved rows: whole warps per block, not per row.
  // So are rows held by part of a warp each (a power of two of threads).
  bool subWarp = !interleaved && threads < (int64_t)target.warpSize;
  FailureOr<MemRefType> exchange = checkRowBasics(
      group, s, vec, s.getShifted(),
      interleaved || subWarp ? threads * s.getRowsPerBlock() : threads,
      " (use shifted = true)", target, anchor);
  if (failed(exchange))
    return failure();
  if (subWarp && (threads < 1 || !llvm::isPowerOf2_64(threads) ||
                  s.getShifted() || s.getCluster() != 1 ||
                  s.getColumnPartials() > 0))
    return fail() << "fewer threads per row than a warp's must be a power "
                     "of two, with no shifted chunks, cluster or column "
                     "partials";
  if (interleaved &&
      (vec != 1 || s.getShifted() || s.getSharedChunks() > 0 ||
       s.getPersistentClusters() > 0 || s.getOnlineSoftmax()))
    return fail() << "interleaved rows take vector = 1, no shifted chunks, "
                     "no shared-memory staging and no online softmax";
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
  int64_t rowsPerBlock = s.getRowsPerBlock();
  if (rowsPerBlock < 1 || group.numRows() % rowsPerBlock != 0)
    return fail() << "rows_per_block must divide the " << group.numRows()
                  << " rows";
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
  if (rowsPerBlock * threads > (int64_t)target.maxThreadsPerBlock)
    return fail() << "rows_per_block x threads is over the target's "
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
  if (threads * s.getRowsPerBlock() * s.getBlocksPerMultiprocessor() >
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

void kf::emitRowKernel(RewriterBase &b, Group &group, RowStrategyAttr s,
                       const KernelTargetInfo &target) {
  Location loc = group.ops.front().op.getLoc();
  unsigned vec = s.getVector();
  bool shifted = s.getShifted();
  int64_t rows = group.numRows();
  int64_t chunksPerRow = getChunksPerRow(group.inner, vec, shifted);
  int64_t threads = s.getThreads();
  int64_t numChunks = s.getChunks();
  int64_t clusterSize = s.getCluster();
  int64_t sharedChunks = s.getSharedChunks();
  int64_t blocksPerMultiprocessor = s.getBlocksPerMultiprocessor();
  bool interleaved = s.getInterleaved();
  std::string why;
  // checkRowStrategy proved that the reductions share one exchange type.
  MemRefType exchange = *getExchangeType(b, group, target, why);
  int64_t numReduce = exchange.getDimSize(0);
  SmallVector<Type> wgTypes;
  SmallVector<StagedInput> sliceStaged;
  int64_t sliceBytes = 0;
  if (sharedChunks > 0) {
    bool tooBig = false;
    sliceStaged = selectStagedInputs(
        group, target, sharedChunks, threads, vec, blocksPerMultiprocessor,
        blockStaticBytes(exchange, threads > (int64_t)target.warpSize, 1),
        sliceBytes, tooBig);
  }
  int64_t rowsPerBlock = s.getRowsPerBlock();
  // The block's partials: a warp's per reduction, or with interleaved rows
  // every thread's ([reductions][threads per row][rows]).
  bool blockExchange = interleaved ? threads > 1 : threads > target.warpSize;
  if (interleaved && blockExchange)
    wgTypes.push_back(MemRefType::get({numReduce, threads, rowsPerBlock},
                                      exchange.getElementType(), AffineMap(),
                                      exchange.getMemorySpace()));
  else if (blockExchange)
    wgTypes.push_back(exchange);
  int64_t gridClusters = rows / rowsPerBlock;
  int64_t columnPartials = s.getColumnPartials();
  if (columnPartials > 0)
    gridClusters = columnPartials;
  // Column accumulators in shared memory: the last workgroup buffer.
  bool sharedAccumulators = s.getSharedAccumulators();
  if (sharedAccumulators) {
    Type accType;
    for (const GroupOp &g : group.ops)
      if (g.role == RowRole::ColumnReduce)
        accType = g.op.getBody()->getArgument(g.op.getNumDpsInputs()).getType();
    wgTypes.push_back(MemRefType::get(
        {rowsPerBlock, (int64_t)group.columnWritten.size(), group.inner},
        accType, AffineMap(), exchange.getMemorySpace()));
  }
  SmallVector<StagedInput> staged;
  int64_t stagingBytes = 0;
  if (clusterSize > 1 && sharedChunks > 0) {
    wgTypes.push_back(MemRefType::get({exchange.getDimSize(0)},
                                      exchange.getElementType(), AffineMap(),
                                      exchange.getMemorySpace()));
  } else if (clusterSize > 1) {
    if (s.getPersistentClusters() > 0) {
      // Totals of two rows (see RowCluster).
      bool tooBig = false;
      staged = selectStagedInputs(
          group, target, numChunks, threads, vec, blocksPerMultiprocessor,
          blockStaticBytes(exchange, threads > (int64_t)target.warpSize, 2),
          stagingBytes, tooBig);
      gridClusters = s.getPersistentClusters();
    }
    SmallVector<int64_t> totalsShape;
    if (!staged.empty())
      totalsShape.push_back(2);
    totalsShape.push_back(numReduce);
    if (interleaved)
      totalsShape.push_back(rowsPerBlock);
    wgTypes.push_back(MemRefType::get(totalsShape, exchange.getElementType(),
                                      AffineMap(), exchange.getMemorySpace()));
  }
  bool persistent = !staged.empty();

  // Insert at the last op: every view the group uses is defined by then,
  // and only allocations, views and constants sit between group members.
  b.setInsertionPoint(group.ops.back().op);
  // Column partials: one [blocks * rows_per_block, inner] workspace per
  // column reduction.
  SmallVector<Value> workspaces;
  for (const GroupOp &g : group.ops)
    if (g.role == RowRole::ColumnReduce)
      workspaces.push_back(memref::AllocOp::create(
          b, loc,
          MemRefType::get(
              {columnPartials * (s.getSharedAccumulators() ? 1 : rowsPerBlock),
               group.inner},
              cast<MemRefType>(g.op.getDpsInits()[0].getType())
                  .getElementType())));
  Value dynamicBytes;
  if (persistent || sharedChunks > 0)
    dynamicBytes = arith::ConstantOp::create(
        b, loc, b.getI32IntegerAttr(persistent ? stagingBytes : sliceBytes));
  gpu::LaunchOp launch =
      createLaunch(b, loc, {gridClusters * clusterSize},
                   {threads * rowsPerBlock}, wgTypes, clusterSize);
  if (dynamicBytes)
    launch.getDynamicSharedMemorySizeMutable().assign(dynamicBytes);
  if (persistent)
    launch->setAttr(kPersistentAttrName, b.getUnitAttr());
  Value row = launch.getBlockIds().x;
  Value blockId = row;
  Value tid = launch.getThreadIds().x;
  // Several rows per block: this thread's row of the block.
  Value rowSlot;
  RowCluster cluster;
  cluster.size = clusterSize;
  scf::ForOp columnLoop;
  // The next row's prefetched inputs, yielded after the accumulators.
  SmallVector<Value> prefetchYields;
  // Interleaved rows: row x * R + t mod R of the block's cluster x (its
  // rank within), held by the threads t / R of that row.
  Value rowInBlock;
  if (interleaved) {
    Value block = row;
    if (clusterSize > 1) {
      Value cC = cIdx(b, loc, clusterSize);
      cluster.rank = arith::RemUIOp::create(b, loc, block, cC);
      block = arith::DivUIOp::create(b, loc, block, cC);
    }
    Value cR = cIdx(b, loc, rowsPerBlock);
    rowInBlock = arith::RemUIOp::create(b, loc, tid, cR);
    row = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, block, cR), rowInBlock);
    tid = arith::DivUIOp::create(b, loc, tid, cR);
  } else if (rowsPerBlock > 1) {
    // Row bid * R + tid / T, held by threads tid mod T.
    Value cT = cIdx(b, loc, threads);
    rowSlot = arith::DivUIOp::create(b, loc, tid, cT);
    if (columnPartials == 0)
      row = arith::AddIOp::create(
          b, loc,
          arith::MulIOp::create(b, loc, row, cIdx(b, loc, rowsPerBlock)),
          rowSlot);
    tid = arith::RemUIOp::create(b, loc, tid, cT);
  }
  Value smem;
  if (blockExchange)
    smem = launch.getWorkgroupAttributions().front();
  // Chunks of the row before this block's slice.
  Value sliceStart = cIdx(b, loc, 0);
  if (clusterSize > 1) {
    // Consecutive blocks along x form a cluster: block x holds slice
    // x mod C of row x / C (of rows x / C, x / C + clusters, ... when the
    // clusters are persistent).
    Value cC = cIdx(b, loc, clusterSize);
    cluster.totals = launch.getWorkgroupAttributions().back();
    cluster.row = rowInBlock;
    if (!interleaved) {
      cluster.rank = arith::RemUIOp::create(b, loc, row, cC);
      row = arith::DivUIOp::create(b, loc, row, cC);
    }
    sliceStart = arith::MulIOp::create(
        b, loc, cluster.rank,
        cIdx(b, loc, (numChunks + sharedChunks) * threads));
  }
  if (blocksPerMultiprocessor > 1)
    OccupancyHintOp::create(b, loc, blocksPerMultiprocessor);
  EmitState st(loc);
  bool mayPassRow =
      clusterSize * (numChunks + sharedChunks) * threads > chunksPerRow;
  if (shifted) {
    initRowState(b, st, launch, group, vec, row);
    SmallVector<Value> chunks;
    for (int64_t c = 0; c < numChunks; ++c)
      chunks.push_back(arith::AddIOp::create(
          b, loc, sliceStart,
          arith::AddIOp::create(b, loc, cIdx(b, loc, c * threads), tid)));
    setupShiftedChunks(b, st, row, chunks, group.inner, rows, mayPassRow);
  }
  for (int64_t c = 0; !shifted && c < numChunks; ++c) {
    // Chunk c of thread t covers inner [(c*T + t)*v, +v) of its slice:
    // coalesced.
    Value chunk = arith::AddIOp::create(
        b, loc, sliceStart,
        arith::AddIOp::create(b, loc, cIdx(b, loc, c * threads), tid));
    Value base = arith::MulIOp::create(b, loc, chunk, cIdx(b, loc, vec));
    st.chunkBase.push_back(base);
    if (clusterSize > 1 ? mayPassRow : (c + 1) * threads > chunksPerRow)
      st.chunkValid.push_back(
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, chunk,
                                cIdx(b, loc, chunksPerRow)));
    else
      st.chunkValid.push_back(Value());
  }
  if (persistent) {
    // Each cluster walks rows first, first + clusters, ...: the slice of
    // the next row is copied into shared memory (cp.async) while this one
    // is reduced and written, so DRAM reads never wait for the exchange.
    Value dyn = gpu::DynamicSharedMemoryOp::create(
        b, loc,
        MemRefType::get({ShapedType::kDynamic}, b.getI8Type(), AffineMap(),
                        exchange.getMemorySpace()));
    for (StagedInput &in : staged)
      in.view = memref::ViewOp::create(
          b, loc,
          MemRefType::get({numChunks, threads, (int64_t)vec}, in.elementType,
                          AffineMap(), exchange.getMemorySpace()),
          dyn, cIdx(b, loc, in.offset), ValueRange{});
    Value first = row;
    Value step = arith::DivUIOp::create(b, loc, launch.getGridSize().x,
                                        cIdx(b, loc, clusterSize));
    emitRowPrefetch(b, loc, group, staged, st.chunkBase, st.chunkValid, first,
                    tid, vec);
    auto rowLoop = scf::ForOp::create(b, loc, first, cIdx(b, loc, rows), step);
    b.setInsertionPoint(rowLoop.getBody()->getTerminator());
    // Rows begin and end at a barrier (the host emulation splits phases
    // there; the block's shared memory changes hands between rows).
    gpu::BarrierOp::create(b, loc);
    row = rowLoop.getInductionVar();
    Value iteration = arith::DivUIOp::create(
        b, loc, arith::SubIOp::create(b, loc, row, first), step);
    cluster.parity = arith::RemUIOp::create(b, loc, iteration, cIdx(b, loc, 2));
    // This row's slice is in shared memory once this thread's copies are
    // done (each thread reads back only what it copied).
    waitForOwnCopies(b, loc);
    initRowState(b, st, launch, group, vec, row);
    for (StagedInput &in : staged) {
      SmallVector<Value> lanes;
      for (int64_t c = 0; c < numChunks; ++c)
        llvm::append_range(
            lanes, loadLanes(b, loc, in.view,
                             {cIdx(b, loc, c), tid, cIdx(b, loc, 0)}, vec));
      st.loadCache[std::make_tuple(in.memref, in.map, 1)] = lanes;
    }
    // The staging buffer is read before the next row's copies overwrite it.
    gpu::BarrierOp::create(b, loc);
    Value next = arith::AddIOp::create(b, loc, row, step);
    auto ifOp = scf::IfOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, next,
                              cIdx(b, loc, rows)),
        /*withElseRegion=*/false);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
      emitRowPrefetch(b, loc, group, staged, st.chunkBase, st.chunkValid, next,
                      tid, vec);
    }
  } else if (columnPartials > 0) {
    // Block x walks the row groups x, x + blocks, ...; its threads'
    // column accumulators (one per lane) are the loop's values, or their
    // columns of the block's buffer in shared memory.
    SmallVector<Value> inits;
    unsigned index = 0;
    if (sharedAccumulators) {
      st.columnShared = launch.getWorkgroupAttributions().back();
      st.columnSlot = rowSlot ? rowSlot : cIdx(b, loc, 0);
    }
    for (const GroupOp &g : group.ops) {
      if (g.role != RowRole::ColumnReduce)
        continue;
      st.columnIndex[g.op] = index++;
      Value identity = arith::getIdentityValue(
          g.kind, g.op.getBody()->getArgument(g.op.getNumDpsInputs()).getType(),
          b, loc);
      if (!sharedAccumulators) {
        inits.append(numChunks * vec, identity);
        continue;
      }
      for (int64_t c = 0; c < numChunks; ++c) {
        OpBuilder::InsertionGuard guard(b);
        if (Value valid = st.chunkValid[c]) {
          auto ifOp = scf::IfOp::create(b, loc, valid, false);
          b.setInsertionPointToStart(&ifOp.getThenRegion().front());
        }
        for (unsigned l = 0; l < vec; ++l)
          memref::StoreOp::create(b, loc, identity, st.columnShared,
                                  getSharedAccumulatorIndex(b, st, g.op, c, l));
      }
    }
    // Inputs read along the row, prefetched `depth` rows ahead: the first
    // `depth` rows' before the loop (in row order), then one row further
    // when a row starts, carried by the loop (the rows past the last load
    // the last one again).
    SmallVector<std::pair<linalg::GenericOp, OpOperand *>> prefetched;
    unsigned accValues = inits.size();
    int64_t depth = s.getPrefetchRows();
    int64_t rowGroups = rows / rowsPerBlock;
    auto rowOf = [&](Value group) -> Value {
      if (!rowSlot)
        return group;
      return arith::AddIOp::create(
          b, loc,
          arith::MulIOp::create(b, loc, group, cIdx(b, loc, rowsPerBlock)),
          rowSlot);
    };
    // Row group `base + ahead * column_partials`, at most the last one.
    auto aheadOf = [&](Value base, int64_t ahead) -> Value {
      if (ahead == 0)
        return base;
      return arith::MinUIOp::create(
          b, loc,
          arith::AddIOp::create(b, loc, base,
                                cIdx(b, loc, ahead * columnPartials)),
          cIdx(b, loc, rowGroups - 1));
    };
    if (depth > 0) {
      prefetched = getInputsReadAlongRows(group);
      for (int64_t d = 0; d < depth; ++d) {
        initRowState(b, st, launch, group, vec, rowOf(aheadOf(blockId, d)));
        for (auto [op, in] : prefetched)
          llvm::append_range(inits, loadOperandUncached(b, st, op, *in,
                                                        RowRole::Vector,
                                                        numChunks));
      }
    }
    columnLoop = scf::ForOp::create(b, loc, blockId,
                                    cIdx(b, loc, rows / rowsPerBlock),
                                    cIdx(b, loc, columnPartials), inits);
    // (A loop with values gets no terminator from its builder.)
    b.setInsertionPointToStart(columnLoop.getBody());
    if (!inits.empty())
      scf::YieldOp::create(b, loc, columnLoop.getRegionIterArgs());
    b.setInsertionPoint(columnLoop.getBody()->getTerminator());
    // Rows begin and end at a barrier (the block's shared memory changes
    // hands between rows; the host emulation splits phases there).
    gpu::BarrierOp::create(b, loc);
    unsigned k = 0;
    for (const GroupOp &g : group.ops)
      if (g.role == RowRole::ColumnReduce && !sharedAccumulators) {
        auto args = columnLoop.getRegionIterArgs().slice(k, numChunks * vec);
        st.columnAcc[g.op] = SmallVector<Value>(args.begin(), args.end());
        k += numChunks * vec;
      }
    row = rowOf(columnLoop.getInductionVar());
    if (!prefetched.empty()) {
      // The loads `depth` rows ahead first, then this row's inputs are the
      // loop's first prefetched values; the others move up one row.
      unsigned perRow = prefetched.size() * numChunks * vec;
      llvm::append_range(prefetchYields, columnLoop.getRegionIterArgs().slice(
                                             accValues + perRow,
                                             (depth - 1) * perRow));
      initRowState(b, st, launch, group, vec,
                   rowOf(aheadOf(columnLoop.getInductionVar(), depth)));
      for (auto [op, in] : prefetched)
        llvm::append_range(prefetchYields,
                           loadOperandUncached(b, st, op, *in, RowRole::Vector,
                                               numChunks));
      initRowState(b, st, launch, group, vec, row);
      unsigned at = accValues;
      for (auto [op, in] : prefetched) {
        auto lanes = columnLoop.getRegionIterArgs().slice(at, numChunks * vec);
        at += numChunks * vec;
        st.loadCache[std::make_tuple(in->get(),
                                     op.getMatchingIndexingMap(in), 1)] =
            SmallVector<Value>(lanes.begin(), lanes.end());
      }
    } else {
      initRowState(b, st, launch, group, vec, row);
    }
  } else if (!shifted) {
    initRowState(b, st, launch, group, vec, row);
  }
  // The part of the slice held in shared memory: chunks numChunks.. of the
  // block, copied in now (while the registers' chunks load) and read back
  // by passes that replay the elementwise ops for one chunk at a time.
  // Shared chunk `j` of this thread: its first element and whether it lies
  // in the row (null when every chunk does).
  auto sharedChunkAt = [&](Value j) -> std::pair<Value, Value> {
    Value chunk = arith::AddIOp::create(
        b, loc, sliceStart,
        arith::AddIOp::create(
            b, loc,
            arith::MulIOp::create(
                b, loc,
                arith::AddIOp::create(b, loc, j, cIdx(b, loc, numChunks)),
                cIdx(b, loc, threads)),
            tid));
    Value base = arith::MulIOp::create(b, loc, chunk, cIdx(b, loc, vec));
    Value valid;
    if (mayPassRow)
      valid = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, chunk,
                                    cIdx(b, loc, chunksPerRow));
    return {base, valid};
  };
  SmallVector<Value> sharedBase, sharedValid;
  for (int64_t j = 0; j < sharedChunks; ++j) {
    auto [base, valid] = sharedChunkAt(cIdx(b, loc, j));
    sharedBase.push_back(base);
    sharedValid.push_back(valid);
  }
  if (sharedChunks > 0) {
    Value dyn = gpu::DynamicSharedMemoryOp::create(
        b, loc,
        MemRefType::get({ShapedType::kDynamic}, b.getI8Type(), AffineMap(),
                        exchange.getMemorySpace()));
    for (StagedInput &in : sliceStaged) {
      in.view = memref::ViewOp::create(
          b, loc,
          MemRefType::get({sharedChunks, threads, (int64_t)vec}, in.elementType,
                          AffineMap(), exchange.getMemorySpace()),
          dyn, cIdx(b, loc, in.offset), ValueRange{});
      st.stagedViews[{in.memref, in.map}] = in.view;
    }
    emitRowPrefetch(b, loc, group, sliceStaged, sharedBase, sharedValid, row,
                    tid, vec);
  }
  VectorOpList vectorOps;
  bool copiesDone = false;
  // One pass over the chunks in shared memory: the elementwise ops so far,
  // then reduction `reduce` (returns the thread partial) or the stores of
  // the row-shaped results.
  auto sharedPass = [&](const GroupOp *reduce) -> Value {
    if (!copiesDone) {
      // Each thread reads back only what it copied.
      waitForOwnCopies(b, loc);
      copiesDone = true;
    }
    // The register chunks' state stays for after the pass.
    SmallVector<Value> savedBase = st.chunkBase, savedValid = st.chunkValid;
    auto savedVec = std::move(st.vecValues);
    auto savedCache = std::move(st.loadCache);
    Value result = emitChunkPass(b, st, group, vectorOps, reduce, sharedChunks,
                                 [&](Value j) {
                                   auto [base, valid] = sharedChunkAt(j);
                                   st.chunkBase = {base};
                                   st.chunkValid = {valid};
                                   st.stagedChunk = j;
                                   st.stagedTid = tid;
                                 });
    st.chunkBase = std::move(savedBase);
    st.chunkValid = std::move(savedValid);
    st.vecValues = std::move(savedVec);
    st.loadCache = std::move(savedCache);
    st.stagedChunk = Value();
    return result;
  };
  unsigned slot = 0;
  for (size_t i = 0; i < group.ops.size(); ++i) {
    const GroupOp &g = group.ops[i];
    if (sharedChunks > 0 && g.role == RowRole::Vector)
      vectorOps.push_back({&g, st.scalarValues});
    Value partial;
    emitOp(b, st, g, numChunks, partial);
    if (g.role != RowRole::Reduce)
      continue;
    std::optional<OnlineSoftmax> online;
    if (s.getOnlineSoftmax())
      online = matchOnlineSoftmax(group, i);
    if (sharedChunks > 0)
      partial = arith::getReductionOp(g.kind, b, loc, partial, sharedPass(&g));
    if (interleaved) {
      setReductionResult(b, st, g,
                         interleavedRowReduce(b, loc, partial, g.kind, threads,
                                              tid, rowInBlock, smem, slot++,
                                              cluster));
      continue;
    }
    if (!online && clusterSize == 1 && sharedChunks == 0) {
      // Reductions right after this one that read none of the batch's
      // results are reduced with it, at one barrier.
      SmallVector<const GroupOp *> batch = {&g};
      SmallVector<Value> partials = {partial};
      DenseSet<Value> results = {getRootBuffer(g.op.getDpsInits()[0])};
      while (i + 1 < group.ops.size()) {
        const GroupOp &next = group.ops[i + 1];
        // (Online softmax needs a cluster: not on this path.)
        if (next.role != RowRole::Reduce ||
            llvm::any_of(next.op->getOperands(), [&](Value v) {
              return isa<MemRefType>(v.getType()) &&
                     results.contains(getRootBuffer(v));
            }))
          break;
        Value p;
        emitOp(b, st, next, numChunks, p);
        batch.push_back(&next);
        partials.push_back(p);
        results.insert(getRootBuffer(next.op.getDpsInits()[0]));
        ++i;
      }
      SmallVector<arith::AtomicRMWKind> kinds;
      for (const GroupOp *r : batch)
        kinds.push_back(r->kind);
      SmallVector<Value> totals =
          blockReduceMany(b, loc, partials, kinds, threads, target.warpSize,
                          tid, smem, slot);
      slot += batch.size();
      for (auto [r, total] : llvm::zip(batch, totals))
        setReductionResult(b, st, *r, total);
      continue;
    }
    if (!online) {
      finishReduction(b, st, g, partial, threads, target, tid, smem, slot++,
                      &cluster);
      continue;
    }
    if (sharedChunks > 0)
      emitOnlineSoftmax(b, st, group, i, *online, partial, numChunks, threads,
                        target, tid, smem, cluster, slot, &vectorOps,
                        sharedPass);
    else
      emitOnlineSoftmax(b, st, group, i, *online, partial, numChunks, threads,
                        target, tid, smem, cluster, slot);
    slot += 2;
    i = online->sum;
  }
  // Every block of the cluster has read what it overwrites (a reduction's
  // initial value) before any stores. Otherwise the blocks arrive at a
  // split cluster barrier once their last distributed shared memory read is
  // done and wait for it only before exiting (no block may exit while
  // another still reads its totals), so the stores do not wait. Persistent
  // clusters meet once more after their last row instead.
  bool clusterReads = clusterSize > 1 && slot > 0;
  bool overwrites = overwritesItsInput(group);
  if (overwrites && clusterSize > 1)
    ClusterBarrierOp::create(b, loc);
  else if (overwrites)
    gpu::BarrierOp::create(b, loc);
  else if (clusterReads && !persistent)
    ClusterArriveOp::create(b, loc);
  Value leader = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid,
                                       cIdx(b, loc, 0));
  if (clusterSize > 1)
    leader = arith::AndIOp::create(
        b, loc, leader,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, cluster.rank,
                              cIdx(b, loc, 0)));
  storeResults(b, st, group, numChunks, leader);
  bool rowResults = llvm::any_of(group.written, [&](auto &entry) {
    return group.writtenIsVector.lookup(entry.first) &&
           !isGroupPrivate(entry.first, group);
  });
  if (sharedChunks > 0 && rowResults)
    sharedPass(nullptr);
  if (persistent) {
    // The last row's barrier also keeps every block until the others'
    // last reads of its totals.
    ClusterBarrierOp::create(b, loc);
  } else if (clusterReads && !overwrites) {
    ClusterWaitOp::create(b, loc);
  }
  if (columnPartials > 0)
    finishColumnPartials(b, loc, group, launch, columnLoop, st, workspaces,
                         numChunks, vec, blockId, rowSlot, rowsPerBlock,
                         prefetchYields, target);
}
