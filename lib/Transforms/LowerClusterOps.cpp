//===- LowerClusterOps.cpp - memopt cluster ops to NVVM -------*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements memopt-lower-cluster-ops: cluster barriers and reads
// of another block's shared memory become NVVM operations, before the
// GPU-to-NVVM conversion lowers the memrefs around them; occupancy hints
// become the kernel's nvvm.minctasm; last-arrival counts become atomics on
// a global of counters.
//
//===----------------------------------------------------------------------===//

#include "memopt/Transforms/Passes.h"
#include "memopt/Transforms/Transforms.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::memopt {
#define GEN_PASS_DEF_MEMOPTLOWERCLUSTEROPSPASS
#include "memopt/Transforms/Passes.h.inc"
} // namespace mlir::memopt

using namespace mlir;
using namespace mlir::memopt;

/// NVPTX address spaces of shared memory and of the cluster's shared window.
static constexpr unsigned kSharedSpace = 3;
static constexpr unsigned kSharedClusterSpace = 7;
/// NVVM's minimum resident blocks per multiprocessor (.minnctapersm).
static constexpr llvm::StringLiteral kMinBlocksAttr = "nvvm.minctasm";

/// `memopt.cluster_load`: the element's offset from the buffer's aligned
/// start (identity layout, static shape), the start as a shared pointer
/// mapped into block `rank`'s window, one load.
static void lowerClusterLoad(RewriterBase &rewriter, ClusterLoadOp op) {
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  MemRefType type = op.getMemRefType();
  rewriter.setInsertionPoint(op);
  Value offset = arith::ConstantIndexOp::create(rewriter, loc, 0);
  SmallVector<int64_t> strides = computeSuffixProduct(type.getShape());
  for (auto [idx, s] : llvm::zip(op.getIndices(), strides)) {
    Value term = arith::MulIOp::create(
        rewriter, loc, idx, arith::ConstantIndexOp::create(rewriter, loc, s));
    offset = arith::AddIOp::create(rewriter, loc, offset, term);
  }
  Type i64 = rewriter.getI64Type();
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(
      rewriter, loc, op.getMemref());
  Value baseInt = arith::IndexCastOp::create(rewriter, loc, i64, base);
  auto sharedPtr = LLVM::LLVMPointerType::get(ctx, kSharedSpace);
  auto clusterPtr = LLVM::LLVMPointerType::get(ctx, kSharedClusterSpace);
  Value local = LLVM::IntToPtrOp::create(rewriter, loc, sharedPtr, baseInt);
  Value rank = arith::IndexCastOp::create(rewriter, loc, rewriter.getI32Type(),
                                          op.getRank());
  Value remote = NVVM::MapaOp::create(rewriter, loc, clusterPtr, local, rank);
  Value offsetInt = arith::IndexCastOp::create(rewriter, loc, i64, offset);
  Type elt = type.getElementType();
  Value addr = LLVM::GEPOp::create(rewriter, loc, clusterPtr, elt, remote,
                                   ValueRange{offsetInt});
  unsigned align = std::max<unsigned>(1, elt.getIntOrFloatBitWidth() / 8);
  Value v = LLVM::LoadOp::create(rewriter, loc, elt, addr, align);
  rewriter.replaceOp(op, v);
}

void memopt::expandLastArrival(RewriterBase &rewriter, LastArrivalOp op,
                               Value counters, Value flag, bool fences) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Type i32 = rewriter.getI32Type();
  auto idx = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, v);
  };
  auto i32c = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(rewriter, loc, i32, v);
  };
  auto fence = [&] {
    if (fences)
      LLVM::FenceOp::create(rewriter, loc, LLVM::AtomicOrdering::acq_rel,
                            rewriter.getStringAttr("device"));
  };
  gpu::BarrierOp::create(rewriter, loc);
  Value first;
  for (gpu::Dimension d :
       {gpu::Dimension::x, gpu::Dimension::y, gpu::Dimension::z}) {
    Value isZero = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::eq,
        gpu::ThreadIdOp::create(rewriter, loc, d), idx(0));
    first = first ? arith::AndIOp::create(rewriter, loc, first, isZero)
                        .getResult()
                  : isZero;
  }
  {
    OpBuilder::InsertionGuard guard(rewriter);
    auto ifOp = scf::IfOp::create(rewriter, loc, first, false);
    rewriter.setInsertionPointToStart(&ifOp.getThenRegion().front());
    // Release: the block's writes (ordered before thread 0 by the barrier)
    // before the count; acquire, in the last block only: the other blocks'
    // before the flag (each fence waits for the thread's memory operations,
    // so the blocks that are not last skip the second).
    fence();
    Value old = memref::AtomicRMWOp::create(
        rewriter, loc, arith::AtomicRMWKind::addi, i32c(1), counters,
        ValueRange{op.getSlot()});
    Value last = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                       old, i32c(op.getArrivals() - 1));
    {
      OpBuilder::InsertionGuard inner(rewriter);
      auto reset = scf::IfOp::create(rewriter, loc, last, false);
      rewriter.setInsertionPointToStart(&reset.getThenRegion().front());
      memref::StoreOp::create(rewriter, loc, i32c(0), counters,
                              ValueRange{op.getSlot()});
      fence();
    }
    memref::StoreOp::create(rewriter, loc,
                            arith::ExtUIOp::create(rewriter, loc, i32, last),
                            flag, ValueRange{idx(0)});
  }
  gpu::BarrierOp::create(rewriter, loc);
  Value v = memref::LoadOp::create(rewriter, loc, flag, ValueRange{idx(0)});
  rewriter.replaceOp(op, arith::CmpIOp::create(rewriter, loc,
                                               arith::CmpIPredicate::ne, v,
                                               i32c(0)));
}

/// `memopt.last_arrival` in an outlined kernel: its counters a
/// zero-initialized global of the kernel module, its flag a workgroup
/// buffer of the kernel.
static LogicalResult lowerLastArrival(RewriterBase &rewriter,
                                      LastArrivalOp op) {
  auto func = op->getParentOfType<gpu::GPUFuncOp>();
  auto module = op->getParentOfType<gpu::GPUModuleOp>();
  if (!func || !module)
    return op.emitOpError("is not inside an outlined kernel");
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  Type i32 = rewriter.getI32Type();
  auto counterType = MemRefType::get({op.getSlots()}, i32);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(module.getBody());
  auto global = memref::GlobalOp::create(
      rewriter, loc, "memopt_arrivals", rewriter.getStringAttr("private"),
      counterType,
      DenseElementsAttr::get(RankedTensorType::get({op.getSlots()}, i32),
                             rewriter.getI32IntegerAttr(0)),
      /*constant=*/false, rewriter.getI64IntegerAttr(4));
  SymbolTable(module).insert(global);
  auto flagType = MemRefType::get(
      {1}, i32, AffineMap(),
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup));
  Value flag = func.addWorkgroupAttribution(flagType, loc);
  rewriter.setInsertionPoint(op);
  Value counters = memref::GetGlobalOp::create(rewriter, loc, counterType,
                                               global.getSymName());
  expandLastArrival(rewriter, op, counters, flag, /*fences=*/true);
  return success();
}

namespace {
struct MemoptLowerClusterOpsPass final
    : memopt::impl::MemoptLowerClusterOpsPassBase<MemoptLowerClusterOpsPass> {
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      if (isa<ClusterBarrierOp, ClusterArriveOp, ClusterWaitOp, ClusterLoadOp,
              OccupancyHintOp, LastArrivalOp>(op))
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (Operation *op : ops) {
      if (auto hint = dyn_cast<OccupancyHintOp>(op)) {
        auto func = hint->getParentOfType<gpu::GPUFuncOp>();
        if (!func) {
          hint.emitOpError("is not inside an outlined kernel");
          return signalPassFailure();
        }
        // The largest request wins when a kernel holds several.
        int64_t blocks = hint.getBlocksPerMultiprocessor();
        if (auto prev = func->getAttrOfType<IntegerAttr>(kMinBlocksAttr))
          blocks = std::max<int64_t>(blocks, prev.getInt());
        func->setAttr(kMinBlocksAttr, rewriter.getI32IntegerAttr(blocks));
        rewriter.eraseOp(hint);
        continue;
      }
      if (auto arrival = dyn_cast<LastArrivalOp>(op)) {
        if (failed(lowerLastArrival(rewriter, arrival)))
          return signalPassFailure();
        continue;
      }
      if (auto load = dyn_cast<ClusterLoadOp>(op)) {
        if (!load.getType().isIntOrFloat()) {
          load.emitOpError("cannot lower a distributed shared memory read of ")
              << load.getType();
          return signalPassFailure();
        }
        lowerClusterLoad(rewriter, load);
        continue;
      }
      rewriter.setInsertionPoint(op);
      UnitAttr aligned = rewriter.getUnitAttr();
      if (!isa<ClusterWaitOp>(op))
        NVVM::ClusterArriveOp::create(rewriter, op->getLoc(), aligned);
      if (!isa<ClusterArriveOp>(op))
        NVVM::ClusterWaitOp::create(rewriter, op->getLoc(), aligned);
      rewriter.eraseOp(op);
    }
  }
};
} // namespace
