//===- StreamedRowStrategy.cpp - rows streamed in tiles -----*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The streamed row family (#memopt.streamed_row): rows too long for the
// registers of a block or a cluster (or on chips without clusters). One
// block per row walks the row in tiles of one chunk per thread, once per
// reduction (recomputing the elementwise ops the reduction needs from the
// inputs) and once more for the row-shaped results. Only the first pass
// reads the inputs from DRAM when the rows in flight fit in L2;
// memopt-pipeline-loads then prefetches the tiles through shared memory.
//
//===----------------------------------------------------------------------===//

#include "EmitUtils.h"
#include "Strategies.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::memopt;
using namespace mlir::memopt::kf;

StreamedRowStrategyAttr
kf::selectStreamedRowStrategy(const Group &group,
                              const KernelTargetInfo &target) {
  int64_t vec = chooseVectorWidth(group, target);
  int64_t threads = target.maxThreadsPerBlock;
  int64_t tiles = llvm::divideCeil(group.inner / vec, threads);
  // One row in flight per multiprocessor (a reservation of over half its
  // shared memory, which memopt-pipeline-loads' rings then use): the rows
  // in flight, whose later passes re-read them, stay within L2 for twice
  // longer rows than with two.
  int64_t reserved = target.sharedMemoryPerMultiprocessor / 2 + 1024;
  return StreamedRowStrategyAttr::get(group.ops.front().op.getContext(), vec,
                                      threads, tiles, reserved);
}

LogicalResult kf::checkStreamedRowStrategy(const Group &group,
                                           StreamedRowStrategyAttr s,
                                           const KernelTargetInfo &target,
                                           Operation *anchor) {
  auto fail = [&] { return emitCannotHonour(anchor, s); };
  int64_t vec = s.getVector();
  int64_t threads = s.getThreads();
  FailureOr<MemRefType> exchange = checkRowBasics(
      group, s, vec, /*shifted=*/false, threads, "", target, anchor);
  if (failed(exchange))
    return failure();
  if (s.getTiles() * threads < group.inner / vec)
    return fail() << s.getTiles() << " tiles of " << threads
                  << " chunks do not cover the row's " << group.inner / vec
                  << " chunks";
  // The reservation, the block reduction's static buffer and the 1 KiB the
  // system keeps per block.
  int64_t staticBytes = blockStaticBytes(*exchange, /*warpPartials=*/true, 0);
  if (s.getReservedSharedBytes() < 0 ||
      s.getReservedSharedBytes() + staticBytes + 1024 >
          (int64_t)target.maxSharedMemoryPerBlock)
    return fail() << "reserved_shared_bytes with the block's " << staticBytes
                  << " static bytes is over the target's "
                  << target.maxSharedMemoryPerBlock << " bytes per block";
  return success();
}

void kf::emitStreamedRowKernel(RewriterBase &b, Group &group,
                               StreamedRowStrategyAttr s,
                               const KernelTargetInfo &target) {
  Location loc = group.ops.front().op.getLoc();
  unsigned vec = s.getVector();
  int64_t rows = group.numRows();
  int64_t threads = s.getThreads();
  int64_t chunksPerRow = group.inner / vec;
  int64_t tiles = s.getTiles();
  std::string why;
  // checkStreamedRowStrategy proved it.
  MemRefType exchange = *getExchangeType(b, group, target, why);
  b.setInsertionPoint(group.ops.back().op);
  gpu::LaunchOp launch =
      createLaunch(b, loc, {rows}, {threads}, TypeRange{exchange});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(launch);
    launch.getDynamicSharedMemorySizeMutable().assign(arith::ConstantOp::create(
        b, loc, b.getI32IntegerAttr(s.getReservedSharedBytes())));
  }
  Value tid = launch.getThreadIds().x;
  Value smem = launch.getWorkgroupAttributions().front();
  EmitState st(loc);
  initRowState(b, st, launch, group, vec);

  // The elementwise ops so far, each with the row scalars as they were at
  // its position (buffers are reused: softmax's maximum and sum share one).
  VectorOpList vectorOps;
  unsigned passes = 0;
  // One pass over the row's tiles: the elementwise ops so far, then either
  // reduction `reduce` (returns the thread partial) or the stores of the
  // row-shaped results.
  auto emitPass = [&](const GroupOp *reduce) -> Value {
    bool backwards = passes++ % 2 == 1;
    return emitChunkPass(b, st, group, vectorOps, reduce, tiles, [&](Value t) {
      // Every other pass walks the row backwards: it starts with the tiles
      // the previous pass read last, the likeliest to be still in L2.
      if (backwards)
        t = arith::SubIOp::create(b, loc, cIdx(b, loc, tiles - 1), t);
      Value chunk = arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, t, cIdx(b, loc, threads)), tid);
      st.chunkBase = {arith::MulIOp::create(b, loc, chunk, cIdx(b, loc, vec))};
      st.chunkValid = {
          tiles * threads == chunksPerRow
              ? Value()
              : arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, chunk,
                                      cIdx(b, loc, chunksPerRow))
                    .getResult()};
    });
  };
  unsigned slot = 0;
  for (const GroupOp &g : group.ops) {
    if (g.role == RowRole::Vector) {
      vectorOps.push_back({&g, st.scalarValues});
      continue;
    }
    if (g.role == RowRole::Scalar) {
      Value unused;
      emitOp(b, st, g, 1, unused);
      continue;
    }
    Value partial = emitPass(&g);
    finishReduction(b, st, g, partial, threads, target, tid, smem, slot++);
  }
  if (overwritesItsInput(group))
    gpu::BarrierOp::create(b, loc);
  bool rowResults = llvm::any_of(group.written, [&](auto &entry) {
    return group.writtenIsVector.lookup(entry.first) &&
           !isGroupPrivate(entry.first, group);
  });
  if (rowResults)
    emitPass(nullptr);
  Value leader = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid,
                                       cIdx(b, loc, 0));
  storeResults(b, st, group, 1, leader, StoreKind::RowScalars);
}
