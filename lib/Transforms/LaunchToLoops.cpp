//===- LaunchToLoops.cpp - run kernels as host loops --------*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements memopt-launch-to-loops: barrier-free gpu.launch ops
// become sequential scf.for nests so that transformed programs run on the CPU
// in differential tests.
//
//===----------------------------------------------------------------------===//

#include "memopt/Transforms/Passes.h"
#include "memopt/Transforms/Transforms.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::memopt {
#define GEN_PASS_DEF_MEMOPTLAUNCHTOLOOPSPASS
#include "memopt/Transforms/Passes.h.inc"
} // namespace mlir::memopt

using namespace mlir;
using namespace mlir::memopt;

LogicalResult mlir::memopt::convertLaunchToLoops(RewriterBase &rewriter,
                                                 gpu::LaunchOp launch) {
  if (!launch.getWorkgroupAttributions().empty() ||
      !launch.getPrivateAttributions().empty() ||
      !launch.getBody().hasOneBlock() || launch.getAsyncToken())
    return failure();
  WalkResult sync = launch.getBody().walk([](Operation *op) {
    if (isa<gpu::BarrierOp, gpu::ShuffleOp, gpu::AllReduceOp,
            gpu::SubgroupReduceOp>(op))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (sync.wasInterrupted())
    return failure();

  Location loc = launch.getLoc();
  rewriter.setInsertionPoint(launch);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  gpu::KernelDim3 gridSizes = launch.getGridSizeOperandValues();
  gpu::KernelDim3 blockSizes = launch.getBlockSizeOperandValues();
  SmallVector<Value> uppers = {gridSizes.z,  gridSizes.y,  gridSizes.x,
                               blockSizes.z, blockSizes.y, blockSizes.x};
  SmallVector<Value> ivs;
  for (Value ub : uppers) {
    auto forOp = scf::ForOp::create(rewriter, loc, zero, ub, one);
    ivs.push_back(forOp.getInductionVar());
    rewriter.setInsertionPointToStart(forOp.getBody());
  }
  IRMapping map;
  gpu::KernelDim3 bids = launch.getBlockIds(), tids = launch.getThreadIds();
  gpu::KernelDim3 gdims = launch.getGridSize(), bdims = launch.getBlockSize();
  map.map(bids.z, ivs[0]);
  map.map(bids.y, ivs[1]);
  map.map(bids.x, ivs[2]);
  map.map(tids.z, ivs[3]);
  map.map(tids.y, ivs[4]);
  map.map(tids.x, ivs[5]);
  map.map(gdims.x, gridSizes.x);
  map.map(gdims.y, gridSizes.y);
  map.map(gdims.z, gridSizes.z);
  map.map(bdims.x, blockSizes.x);
  map.map(bdims.y, blockSizes.y);
  map.map(bdims.z, blockSizes.z);
  for (Operation &op : launch.getBody().front().without_terminator())
    rewriter.clone(op, map);
  rewriter.eraseOp(launch);
  return success();
}

namespace {
struct MemoptLaunchToLoopsPass final
    : memopt::impl::MemoptLaunchToLoopsPassBase<MemoptLaunchToLoopsPass> {
  void runOnOperation() override {
    SmallVector<gpu::LaunchOp> launches;
    getOperation().walk([&](gpu::LaunchOp op) { launches.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (gpu::LaunchOp launch : launches) {
      if (succeeded(convertLaunchToLoops(rewriter, launch)))
        continue;
      launch.emitOpError("cannot run on the host: the kernel synchronizes "
                         "threads or uses workgroup memory");
      return signalPassFailure();
    }
  }
};
} // namespace
