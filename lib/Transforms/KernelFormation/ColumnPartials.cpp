//===- ColumnPartials.cpp - column reductions in a row kernel --*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Column partials of the row family (#memopt.row column_partials): how many
// row-walking blocks, where their accumulators live, and the end of the
// kernel (partials to the workspace) with the second kernel that combines
// them. The row loop itself is emitRowKernel's (RowStrategy.cpp).
//
//===----------------------------------------------------------------------===//

#include "EmitUtils.h"
#include "Strategies.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::memopt;
using namespace mlir::memopt::kf;

SmallVector<std::pair<linalg::GenericOp, OpOperand *>>
kf::getInputsReadAlongRows(const Group &group) {
  SmallVector<std::pair<linalg::GenericOp, OpOperand *>> inputs;
  DenseSet<std::pair<Value, AffineMap>> seen;
  for (const GroupOp &g : group.ops) {
    if (g.role == RowRole::Scalar)
      continue;
    unsigned n = g.op.getNumLoops();
    for (OpOperand *in : g.op.getDpsInputOperands()) {
      AffineMap m = g.op.getMatchingIndexingMap(in);
      Value root = getRootBuffer(in->get());
      if (!isa<MemRefType>(in->get().getType()) ||
          !group.readExternal.contains(root) || group.written.contains(root) ||
          !m.isFunctionOfDim(n - 1) ||
          llvm::none_of(llvm::seq<unsigned>(0, n - 1),
                        [&](unsigned d) { return m.isFunctionOfDim(d); }) ||
          !seen.insert({in->get(), m}).second)
        continue;
      inputs.push_back({g.op, in});
    }
  }
  return inputs;
}

/// Bytes the group moves at the least: every external buffer it reads or
/// writes, once.
static int64_t getGroupBytes(const Group &group) {
  int64_t bytes = 0;
  auto add = [&](Value root) {
    auto mt = dyn_cast<MemRefType>(root.getType());
    if (mt && mt.hasStaticShape())
      bytes += mt.getNumElements() * getElementBytes(mt.getElementType());
  };
  for (Value root : group.readExternal)
    add(root);
  for (auto &entry : group.written)
    if (!isGroupPrivate(entry.first, group))
      add(entry.first);
  for (auto &entry : group.columnWritten)
    add(entry.first);
  return bytes;
}

/// The one element type of the column reductions' accumulators, or null.
static Type getColumnAccumulatorType(const Group &group) {
  Type t;
  for (const GroupOp &g : group.ops) {
    if (g.role != RowRole::ColumnReduce)
      continue;
    Type a = g.op.getBody()->getArgument(g.op.getNumDpsInputs()).getType();
    if (t && t != a)
      return Type();
    t = a;
  }
  return t;
}

int64_t kf::getSharedAccumulatorBytes(const Group &group,
                                      int64_t rowsPerBlock) {
  Type t = getColumnAccumulatorType(group);
  if (!t || !t.isIntOrFloat())
    return -1;
  return rowsPerBlock * (int64_t)group.columnWritten.size() * group.inner *
         getElementBytes(t);
}

FailureOr<ColumnPartialsPlan>
kf::planColumnPartials(const Group &group, const KernelTargetInfo &target,
                       int64_t chunksPerRow, int64_t vec,
                       function_ref<int64_t(int64_t)> staticBytesFor,
                       std::string &why) {
  int64_t rows = group.numRows();
  DenseSet<Value> alongRows;
  for (auto [op, in] : getInputsReadAlongRows(group))
    alongRows.insert(getRootBuffer(in->get()));
  int64_t rowInputs = alongRows.size();
  int64_t columns = group.columnWritten.size();
  int64_t groupBytes = getGroupBytes(group);
  int64_t maxChunks = std::max<int64_t>(1, target.rowRegisterElements / vec);
  // Block shapes: a block per row of threads x chunks covering it, or for
  // rows a warp holds, a warp per row and several rows per block (the
  // rows' loads in flight together; the emitter's rows_per_block needs a
  // warp per row).
  struct Shape {
    int64_t threads, chunks, rowsPerBlock;
  };
  SmallVector<Shape> shapes;
  for (int64_t c : {8, 4, 2, 1}) {
    int64_t t = std::clamp<int64_t>(
        llvm::alignTo(llvm::divideCeil(chunksPerRow, c), target.warpSize),
        target.warpSize, target.maxThreadsPerBlock);
    int64_t n = llvm::divideCeil(chunksPerRow, t);
    if (n <= maxChunks &&
        llvm::none_of(shapes, [&](const Shape &x) { return x.threads == t; }))
      shapes.push_back({t, n, 1});
  }
  if (chunksPerRow <= (int64_t)target.warpSize * maxChunks)
    for (int64_t r = 2; r * target.warpSize <= target.maxThreadsPerBlock; r *= 2)
      if (rows % r == 0)
        shapes.push_back({(int64_t)target.warpSize,
                          (int64_t)llvm::divideCeil(chunksPerRow, target.warpSize),
                          r});
  if (shapes.empty()) {
    why = "a row of " + std::to_string(group.inner) +
          " elements does not fit in one block's registers (column partials "
          "need each row in one block)";
    return failure();
  }
  // Each candidate (shape, accumulators in registers or shared memory, the
  // next row prefetched or not) and block count is timed by a two-term
  // model: a block's rows are walked one after another, each taking about
  // the target's row latency (its loads, reductions and barriers; 2.5 times
  // that without prefetching: shared accumulators alone measured 60.9% of
  // copy for LayerNorm backward 16384x4096 with 491 blocks, prefetching
  // 76.1 with 396, run 20.2/20.3), and all bytes, the workspace's included,
  // stream at the target's bandwidth: the time is the larger plus half the
  // smaller. More blocks walk fewer rows each but write more partials. The
  // fastest plan wins; ties go to fewer registers per thread.
  ColumnPartialsPlan best;
  double bestTime = 0;
  int64_t bestRegisters = 0;
  for (const Shape &sh : shapes) {
    int64_t blockThreads = sh.threads * sh.rowsPerBlock;
    int64_t lanes = sh.chunks * vec;
    int64_t rowGroups = rows / sh.rowsPerBlock;
    int64_t maxResident = std::min<int64_t>(
        2 * (int64_t)target.maxThreadsPerBlock / blockThreads, 32);
    int64_t staticBytes = staticBytesFor(sh.threads);
    int64_t accBytes = getSharedAccumulatorBytes(group, sh.rowsPerBlock);
    for (bool shared : {false, true}) {
      if (shared && (accBytes <= 0 ||
                     accBytes + staticBytes > (int64_t)target.sharedMemoryBytes))
        continue;
      for (int64_t depth = 0; depth <= 1; ++depth) {
        if (depth > 0 && rowInputs == 0)
          break;
        int64_t registers = 32 + lanes * (rowInputs * (depth + 1) +
                                          (shared ? 0 : columns));
        if (registers > 255)
          break;
        int64_t resident = std::min<int64_t>(
            (int64_t)target.registersPerMultiprocessor /
                (blockThreads * registers),
            maxResident);
        if (shared)
          resident = std::min<int64_t>(
              resident, (int64_t)target.sharedMemoryPerMultiprocessor /
                            (accBytes + staticBytes + 1024));
        if (resident < 1)
          continue;
        // Workspace bytes per block (written once, read once; a block's
        // rows combined in shared memory first when the accumulators are
        // there).
        int64_t perPartial =
            2 * (shared ? 1 : sh.rowsPerBlock) * group.inner * 4 * columns;
        double rowNs = target.rowLatencyNanoseconds * (depth > 0 ? 1.0 : 2.5);
        int64_t maxBlocks =
            std::min<int64_t>(resident * target.multiprocessors, rowGroups);
        for (int64_t blocks = 1; blocks <= maxBlocks; ++blocks) {
          double walk = (double)llvm::divideCeil(rowGroups, blocks) * rowNs;
          double stream = (double)(groupBytes + blocks * perPartial) /
                          target.bytesPerNanosecond;
          // (The two overlap only in part: a block's row waits on its
          // loads and its reductions in turn.)
          double time = std::max(walk, stream) + 0.5 * std::min(walk, stream);
          bool better = best.blocks == 0 || time < bestTime * 0.999 ||
                        (time <= bestTime * 1.001 && registers < bestRegisters);
          if (!better)
            continue;
          bestTime = time;
          bestRegisters = registers;
          best.blocks = blocks;
          best.shared = shared;
          best.prefetchRows = depth;
          best.threads = sh.threads;
          best.chunks = sh.chunks;
          best.rowsPerBlock = sh.rowsPerBlock;
        }
      }
    }
  }
  if (best.blocks == 0) {
    why = "the column accumulators fit neither a thread's registers nor a "
          "block's shared memory";
    return failure();
  }
  return best;
}

/// Column partials, after the rows: each thread stores its accumulators in
/// row blockId * rowsPerBlock + rowSlot of each column reduction's
/// workspace; a second kernel combines the workspace's rows in order, each
/// column by `segments` threads (contiguous runs of rows, then their totals
/// in run order through shared memory), with the output's initial value.
void kf::finishColumnPartials(RewriterBase &b, Location loc,
                                 const Group &group, gpu::LaunchOp launch,
                                 scf::ForOp loop, EmitState &st,
                                 ArrayRef<Value> workspaces, int64_t numChunks,
                                 unsigned vec, Value blockId, Value rowSlot,
                                 int64_t rowsPerBlock,
                                 ArrayRef<Value> prefetchYields,
                                 const KernelTargetInfo &target) {
  SmallVector<const GroupOp *> columns;
  SmallVector<Value> yields;
  for (const GroupOp &g : group.ops)
    if (g.role == RowRole::ColumnReduce) {
      columns.push_back(&g);
      if (!st.columnShared)
        llvm::append_range(yields, st.columnAcc[g.op]);
    }
  llvm::append_range(yields, prefetchYields);
  gpu::BarrierOp::create(b, loc);
  loop.getBody()->getTerminator()->setOperands(yields);
  b.setInsertionPointAfter(loop);
  Value partialRow = blockId;
  // Accumulators in shared memory: the block's rows are combined there in
  // order (after a barrier) and the first row's threads store one partial
  // row; in registers each row of the block stores its own.
  bool combineRows = st.columnShared && rowSlot;
  if (rowSlot && !combineRows)
    partialRow = arith::AddIOp::create(
        b, loc,
        arith::MulIOp::create(b, loc, blockId, cIdx(b, loc, rowsPerBlock)),
        rowSlot);
  OpBuilder::InsertionGuard outerGuard(b);
  if (combineRows) {
    gpu::BarrierOp::create(b, loc);
    auto first = scf::IfOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rowSlot,
                              cIdx(b, loc, 0)),
        false);
    b.setInsertionPointToStart(&first.getThenRegion().front());
  }
  for (auto [k, g] : llvm::enumerate(columns))
    for (int64_t c = 0; c < numChunks; ++c) {
      OpBuilder::InsertionGuard guard(b);
      if (Value valid = st.chunkValid[c]) {
        auto ifOp = scf::IfOp::create(b, loc, valid, false);
        b.setInsertionPointToStart(&ifOp.getThenRegion().front());
      }
      for (unsigned l = 0; l < vec; ++l) {
        Value col = l ? arith::AddIOp::create(b, loc, st.chunkBase[c],
                                              cIdx(b, loc, l))
                            .getResult()
                      : st.chunkBase[c];
        Value acc;
        if (combineRows) {
          Type et = cast<MemRefType>(st.columnShared.getType()).getElementType();
          acc = arith::getIdentityValue(g->kind, et, b, loc);
          SmallVector<Value> idx =
              getSharedAccumulatorIndex(b, st, g->op, c, l);
          for (int64_t r = 0; r < rowsPerBlock; ++r) {
            idx[0] = cIdx(b, loc, r);
            acc = arith::getReductionOp(
                g->kind, b, loc, acc,
                memref::LoadOp::create(b, loc, st.columnShared, idx));
          }
        } else if (st.columnShared) {
          acc = memref::LoadOp::create(
              b, loc, st.columnShared,
              getSharedAccumulatorIndex(b, st, g->op, c, l));
        } else {
          acc = loop.getResult(k * numChunks * vec + c * vec + l);
        }
        memref::StoreOp::create(b, loc, acc, workspaces[k],
                                ValueRange{partialRow, col});
      }
    }

  // The second kernel.
  b.setInsertionPointAfter(launch);
  int64_t partials =
      cast<MemRefType>(workspaces.front().getType()).getDimSize(0);
  int64_t inner = group.inner;
  // Segments of at least 8 partials each, up to 32 (1024-thread blocks of
  // 32 columns).
  int64_t segments = std::clamp<int64_t>(
      llvm::PowerOf2Ceil(partials / 8 + 1) / 2, 1,
      std::min<int64_t>(32, target.maxThreadsPerBlock / target.warpSize));
  int64_t columnsPerBlock = std::min<int64_t>(
      segments > 1 ? target.warpSize : target.blockSize,
      llvm::alignTo(inner, target.warpSize));
  int64_t perSegment = llvm::divideCeil(partials, segments);
  SmallVector<Type> smemTypes;
  Attribute workgroup = gpu::AddressSpaceAttr::get(
      b.getContext(), gpu::AddressSpace::Workgroup);
  for (Value w : workspaces)
    smemTypes.push_back(MemRefType::get(
        {segments, columnsPerBlock},
        cast<MemRefType>(w.getType()).getElementType(), AffineMap(),
        workgroup));
  gpu::LaunchOp finish = createLaunch(
      b, loc, {llvm::divideCeil(inner, columnsPerBlock)},
      {columnsPerBlock * segments}, segments > 1 ? TypeRange(smemTypes)
                                                 : TypeRange());
  Value t = finish.getThreadIds().x;
  Value local = arith::RemUIOp::create(b, loc, t, cIdx(b, loc, columnsPerBlock));
  Value segment =
      arith::DivUIOp::create(b, loc, t, cIdx(b, loc, columnsPerBlock));
  Value j = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc, finish.getBlockIds().x,
                            cIdx(b, loc, columnsPerBlock)),
      local);
  Value inside =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, j,
                            cIdx(b, loc, inner));
  // Threads past the last column read the last one (every thread meets the
  // barrier) and store nothing.
  Value jr = arith::MinUIOp::create(b, loc, j, cIdx(b, loc, inner - 1));
  SmallVector<Value> totals;
  for (auto [k, g] : llvm::enumerate(columns)) {
    Value ws = workspaces[k];
    Type et = cast<MemRefType>(ws.getType()).getElementType();
    Value total = arith::getIdentityValue(g->kind, et, b, loc);
    Value first = arith::MulIOp::create(b, loc, segment,
                                        cIdx(b, loc, perSegment));
    for (int64_t i = 0; i < perSegment; ++i) {
      Value r = arith::AddIOp::create(b, loc, first, cIdx(b, loc, i));
      Value ok = Value();
      if (perSegment * segments != partials) {
        ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, r,
                                   cIdx(b, loc, partials));
        r = arith::MinUIOp::create(b, loc, r, cIdx(b, loc, partials - 1));
      }
      Value x = memref::LoadOp::create(b, loc, ws, ValueRange{r, jr});
      Value next = arith::getReductionOp(g->kind, b, loc, total, x);
      total = ok ? arith::SelectOp::create(b, loc, ok, next, total).getResult()
                 : next;
    }
    if (segments > 1) {
      Value smem = finish.getWorkgroupAttributions()[k];
      memref::StoreOp::create(b, loc, total, smem, ValueRange{segment, local});
    }
    totals.push_back(total);
  }
  Value owns = inside;
  if (segments > 1) {
    gpu::BarrierOp::create(b, loc);
    owns = arith::AndIOp::create(
        b, loc, owns,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, segment,
                              cIdx(b, loc, 0)));
  }
  auto ifOp = scf::IfOp::create(b, loc, owns, false);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  for (auto [k, g] : llvm::enumerate(columns)) {
    Value total = totals[k];
    if (segments > 1) {
      Value smem = finish.getWorkgroupAttributions()[k];
      Type et = cast<MemRefType>(smem.getType()).getElementType();
      total = arith::getIdentityValue(g->kind, et, b, loc);
      for (int64_t s = 0; s < segments; ++s)
        total = arith::getReductionOp(
            g->kind, b, loc, total,
            memref::LoadOp::create(b, loc, smem,
                                   ValueRange{cIdx(b, loc, s), local}));
    }
    // The output's element j: unit dims at 0, the column at the innermost
    // loop's position.
    OpOperand &out = g->op.getDpsInitsMutable()[0];
    SmallVector<Value> idx;
    for (AffineExpr e : g->op.getMatchingIndexingMap(&out).getResults())
      idx.push_back(isa<AffineDimExpr>(e)
                        ? j
                        : cIdx(b, loc, cast<AffineConstantExpr>(e).getValue()));
    // (A fill of the group seeds the output: its constant, not the buffer.)
    Value init;
    if (Value seed = group.columnSeeds.lookup(getRootBuffer(out.get())))
      init = b.clone(*seed.getDefiningOp())->getResult(0);
    else
      init = memref::LoadOp::create(b, loc, out.get(), idx);
    memref::StoreOp::create(
        b, loc, arith::getReductionOp(g->kind, b, loc, init, total), out.get(),
        idx);
  }
  b.setInsertionPointAfter(finish);
  for (Value w : workspaces)
    memref::DeallocOp::create(b, loc, w);
}

