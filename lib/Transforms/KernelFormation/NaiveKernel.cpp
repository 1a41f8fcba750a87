//===- NaiveKernel.cpp - one thread per output point --------*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements the baseline kernel strategy: a linalg.generic on
// memrefs becomes one gpu.launch with one thread per point of its parallel
// iteration space. The innermost parallel loop runs on consecutive threads so
// that accesses along the contiguous dimension coalesce; reduction loops run
// sequentially inside the thread with the accumulator in a register.
//
//===----------------------------------------------------------------------===//

#include "KernelUtils.h"
#include "Strategies.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"

using namespace mlir;
using namespace mlir::memopt;
using namespace mlir::memopt::kf;

FailureOr<gpu::LaunchOp>
mlir::memopt::formNaiveKernel(RewriterBase &rewriter, linalg::GenericOp op,
                              const KernelTargetInfo &target) {
  if (!op.hasPureBufferSemantics())
    return failure();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (llvm::any_of(ranges, ShapedType::isDynamic))
    return failure();

  SmallVector<unsigned> parDims, redDims;
  for (auto [i, it] : llvm::enumerate(op.getIteratorTypesArray()))
    (it == utils::IteratorType::parallel ? parDims : redDims).push_back(i);
  SmallVector<int64_t> parSizes;
  int64_t total = 1;
  for (unsigned d : parDims) {
    parSizes.push_back(ranges[d]);
    total *= ranges[d];
  }
  if (total == 0)
    return failure();

  Location loc = op.getLoc();
  int64_t bs = std::min<int64_t>(target.blockSize, std::max<int64_t>(total, 1));
  int64_t grid = llvm::divideCeil(total, bs);
  rewriter.setInsertionPoint(op);
  gpu::LaunchOp launch = createLaunch(rewriter, loc, {grid}, {bs});
  Value bid = launch.getBlockIds().x;
  Value tid = launch.getThreadIds().x;
  Value cBs = arith::ConstantIndexOp::create(rewriter, loc, bs);
  Value linear = arith::AddIOp::create(
      rewriter, loc, arith::MulIOp::create(rewriter, loc, bid, cBs), tid);
  if (grid * bs != total) {
    Value cTotal = arith::ConstantIndexOp::create(rewriter, loc, total);
    Value inRange = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ult, linear, cTotal);
    auto ifOp = scf::IfOp::create(rewriter, loc, inRange, /*withElse=*/false);
    rewriter.setInsertionPointToStart(&ifOp.getThenRegion().front());
  }

  SmallVector<Value> parIvs = delinearize(rewriter, loc, linear, parSizes);
  unsigned numLoops = ranges.size();
  SmallVector<Value> ivs(numLoops);
  for (auto [k, d] : llvm::enumerate(parDims))
    ivs[d] = parIvs[k];

  Block *body = op.getBody();
  auto loadOperand = [&](OpBuilder &b, OpOperand &operand,
                         ValueRange loopIvs) -> Value {
    Value v = operand.get();
    if (!isa<MemRefType>(v.getType()))
      return v;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    SmallVector<Value> idx = expandIndices(b, loc, map, loopIvs);
    return memref::LoadOp::create(b, loc, v, idx);
  };

  // Output indices never involve reduction dims, so they are computed once.
  SmallVector<Value> outInit;
  for (OpOperand &out : op.getDpsInitsMutable()) {
    BlockArgument arg = body->getArgument(out.getOperandNumber());
    // Only read the output when the body uses its current value; this keeps
    // the naive kernel's traffic honest (no read of a write-only output).
    if (arg.use_empty() && redDims.empty()) {
      outInit.push_back(
          ub::PoisonOp::create(rewriter, loc, arg.getType()).getResult());
      continue;
    }
    // Reduction dims do not appear in output maps: use zero for them.
    SmallVector<Value> tmpIvs(ivs);
    for (unsigned d : redDims)
      tmpIvs[d] = arith::ConstantIndexOp::create(rewriter, loc, 0);
    outInit.push_back(loadOperand(rewriter, out, tmpIvs));
  }

  // Emits the body at `loopIvs` with accumulators `accs`; returns yields.
  auto emitPoint = [&](OpBuilder &b, ValueRange loopIvs,
                       ValueRange accs) -> SmallVector<Value> {
    SmallVector<Value> args;
    for (OpOperand *in : op.getDpsInputOperands())
      args.push_back(loadOperand(b, *in, loopIvs));
    llvm::append_range(args, accs);
    return cloneBody(b, op, args, loopIvs);
  };

  SmallVector<Value> results;
  if (redDims.empty()) {
    results = emitPoint(rewriter, ivs, outInit);
  } else {
    // Nested sequential loops over the reduction dims, accumulators carried.
    std::function<SmallVector<Value>(OpBuilder &, unsigned, ValueRange)>
        buildLoop = [&](OpBuilder &b, unsigned level,
                        ValueRange accs) -> SmallVector<Value> {
      if (level == redDims.size())
        return emitPoint(b, ivs, accs);
      unsigned d = redDims[level];
      Value lb = arith::ConstantIndexOp::create(b, loc, 0);
      Value ub = arith::ConstantIndexOp::create(b, loc, ranges[d]);
      Value step = arith::ConstantIndexOp::create(b, loc, 1);
      auto forOp = scf::ForOp::create(
          b, loc, lb, ub, step, accs,
          [&](OpBuilder &nb, Location, Value iv, ValueRange iterArgs) {
            ivs[d] = iv;
            SmallVector<Value> next = buildLoop(nb, level + 1, iterArgs);
            scf::YieldOp::create(nb, loc, next);
          });
      return SmallVector<Value>(forOp.getResults());
    };
    results = buildLoop(rewriter, 0, outInit);
    for (unsigned d : redDims)
      ivs[d] = arith::ConstantIndexOp::create(rewriter, loc, 0);
  }

  for (auto [k, out] : llvm::enumerate(op.getDpsInitsMutable())) {
    AffineMap map = op.getMatchingIndexingMap(&out);
    SmallVector<Value> idx = expandIndices(rewriter, loc, map, ivs);
    memref::StoreOp::create(rewriter, loc, results[k], out.get(), idx);
  }
  rewriter.eraseOp(op);
  return launch;
}

LogicalResult kf::checkNaiveStrategy(ArrayRef<linalg::GenericOp> ops,
                                     NaiveStrategyAttr s,
                                     const KernelTargetInfo &target,
                                     Operation *anchor) {
  if (s.getThreads() < 1 || s.getThreads() > (int64_t)target.maxThreadsPerBlock)
    return emitCannotHonour(anchor, s)
           << "threads must be between 1 and "
           << target.maxThreadsPerBlock;
  for (linalg::GenericOp op : ops)
    if (!op.hasPureBufferSemantics() ||
        llvm::any_of(op.getStaticLoopRanges(),
                     [](int64_t r) { return ShapedType::isDynamic(r) || r == 0; }))
      return op.emitOpError("cannot form a kernel: needs static shapes and "
                            "buffer semantics (run after bufferization)");
  return success();
}
