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
                       int64_t threads, int64_t numChunks, int64_t vec,
                       int64_t rowsPerBlock, int64_t staticBytes,
                       std::string &why) {
  int64_t rowGroups = group.numRows() / rowsPerBlock;
  int64_t blockThreads = threads * rowsPerBlock;
  // Registers per thread, roughly: the row's lanes of each input read along
  // it and (in registers) each column reduction's accumulators, plus ~32
  // for the rest.
  int64_t lanes = numChunks * vec;
  DenseSet<Value> alongRows;
  for (auto [op, in] : getInputsReadAlongRows(group))
    alongRows.insert(getRootBuffer(in->get()));
  int64_t rowInputs = alongRows.size();
  int64_t columns = group.columnWritten.size();
  int64_t maxResident = 2 * (int64_t)target.maxThreadsPerBlock / blockThreads;
  auto residentFor = [&](int64_t registers) {
    return std::clamp<int64_t>((int64_t)target.registersPerMultiprocessor /
                                   (blockThreads * registers),
                               0, maxResident);
  };
  // In registers (if they fit a thread's 255 without spilling).
  int64_t inRegisters = 32 + lanes * (rowInputs + columns);
  int64_t residentRegisters = inRegisters <= 255 ? residentFor(inRegisters) : 0;
  // In shared memory (if they fit a block's static share): the registers
  // hold the inputs only; the multiprocessor's shared memory bounds too.
  int64_t accBytes = getSharedAccumulatorBytes(group, rowsPerBlock);
  int64_t residentShared = 0;
  if (accBytes > 0 &&
      accBytes + staticBytes <= (int64_t)target.sharedMemoryBytes)
    residentShared = std::min<int64_t>(
        residentFor(32 + lanes * rowInputs),
        (int64_t)target.sharedMemoryPerMultiprocessor /
            (accBytes + staticBytes + 1024));
  ColumnPartialsPlan plan;
  plan.shared = residentShared > residentRegisters;
  int64_t resident = std::max(residentShared, residentRegisters);
  // Prefetching the next row holds two rows' inputs: taken when two blocks
  // (four rows) still fit on a multiprocessor.
  int64_t withPrefetch =
      32 + lanes * (2 * rowInputs + (plan.shared ? 0 : columns));
  if (rowInputs > 0 && withPrefetch <= 255 &&
      residentFor(withPrefetch) >= 2) {
    plan.prefetch = true;
    resident = plan.shared ? std::min(resident, residentFor(withPrefetch))
                           : residentFor(withPrefetch);
  }
  if (resident < 1) {
    why = "the column accumulators (" + std::to_string(lanes) +
          " per thread per reduction) fit neither a thread's registers nor "
          "a block's shared memory";
    return failure();
  }
  // The workspace (written once, read once; a block's rows combined in
  // shared memory first when the accumulators are there) within 8% of the
  // group's bytes, but a block per multiprocessor at least: too few
  // blocks cost more time than the workspace (LayerNorm backward 2048x4096
  // bf16: 61 blocks, 18.7% of copy; run 20.5).
  int64_t perPartial =
      2 * (plan.shared ? 1 : rowsPerBlock) * group.inner * 4 * columns;
  int64_t budget = std::max<int64_t>(1, getGroupBytes(group) * 8 / 100 /
                                            std::max<int64_t>(1, perPartial));
  plan.blocks = std::clamp<int64_t>(
      std::min<int64_t>(resident * target.multiprocessors,
                        std::max<int64_t>(budget, target.multiprocessors)),
      1, rowGroups);
  return plan;
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
    Value init = memref::LoadOp::create(b, loc, out.get(), idx);
    memref::StoreOp::create(
        b, loc, arith::getReductionOp(g->kind, b, loc, init, total), out.get(),
        idx);
  }
  b.setInsertionPointAfter(finish);
  for (Value w : workspaces)
    memref::DeallocOp::create(b, loc, w);
}

