//===- ReportTraffic.cpp - per-kernel traffic and roofline table -*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "memopt/Analysis/KernelReport.h"
#include "memopt/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir::memopt {
#define GEN_PASS_DEF_MEMOPTREPORTTRAFFICPASS
#include "memopt/Transforms/Passes.h.inc"
} // namespace mlir::memopt

using namespace mlir;
using namespace mlir::memopt;

namespace {
struct MemoptReportTrafficPass final
    : memopt::impl::MemoptReportTrafficPassBase<MemoptReportTrafficPass> {
  using Base::Base;

  void runOnOperation() override {
    DeviceModel device{bandwidthGBs, peakGops};
    SmallVector<KernelReport> reports;
    getOperation().walk([&](Operation *op) {
      if (isa<gpu::LaunchOp>(op) ||
          (isa<gpu::GPUFuncOp>(op) && cast<gpu::GPUFuncOp>(op).isKernel()))
        reports.push_back(analyzeKernel(op));
    });
    llvm::raw_ostream &os = llvm::errs();
    os << "memopt traffic report (roofline device: "
       << llvm::format("%.0f", device.bandwidthGBs) << " GB/s, "
       << llvm::format("%.0f", device.peakGops) << " Gop/s)\n";
    os << llvm::format("%-28s %-16s %-12s %12s %12s %7s %10s %10s %12s %7s %9s %s\n",
                       "kernel", "grid", "block", "read B", "written B",
                       "sector", "bank ld", "bank st", "ops", "op/B",
                       "bound us", "bound");
    auto dims = [](const std::array<int64_t, 3> &d) {
      return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" +
             std::to_string(d[2]);
    };
    auto count = [](int64_t v) {
      return v < 0 ? std::string("?") : std::to_string(v);
    };
    // A total, or the per-block figure ("N/blk") when only the block size
    // is known.
    auto countOrPerBlock = [&](int64_t total, int64_t perBlock) {
      if (total >= 0 || perBlock < 0)
        return count(total);
      return std::to_string(perBlock) + "/blk";
    };
    auto orNull = [](double v) {
      return v < 0 ? llvm::json::Value(nullptr) : llvm::json::Value(v);
    };
    llvm::json::Array kernels;
    for (const KernelReport &r : reports) {
      std::string eff =
          r.sectorEfficiency
              ? llvm::formatv("{0:F1}%", 100.0 * *r.sectorEfficiency).str()
              : std::string("?");
      std::string ai = r.arithmeticIntensity() < 0
                           ? std::string("?")
                           : llvm::formatv("{0:F3}", r.arithmeticIntensity())
                                 .str();
      os << llvm::format(
          "%-28s %-16s %-12s %12lld %12lld %7s %10s %10s %12s %7s %9.2f %s\n",
          r.name.c_str(), dims(r.grid).c_str(), dims(r.block).c_str(),
          (long long)r.bytesRead, (long long)r.bytesWritten, eff.c_str(),
          countOrPerBlock(r.bankConflictsLoad, r.bankConflictsLoadPerBlock)
              .c_str(),
          countOrPerBlock(r.bankConflictsStore, r.bankConflictsStorePerBlock)
              .c_str(),
          countOrPerBlock(r.ops, r.opsPerBlock).c_str(),
          ai.c_str(), r.boundTimeUs(device),
          r.memoryBound(device) ? "memory" : "compute");
      llvm::json::Object k{
          {"kernel", r.name},
          {"grid", llvm::json::Array{r.grid[0], r.grid[1], r.grid[2]}},
          {"block", llvm::json::Array{r.block[0], r.block[1], r.block[2]}},
          {"bytes_read", r.bytesRead},
          {"bytes_written", r.bytesWritten},
          {"bank_conflicts_ld", r.bankConflictsLoad},
          {"bank_conflicts_st", r.bankConflictsStore},
          {"bank_conflicts_ld_per_block", r.bankConflictsLoadPerBlock},
          {"bank_conflicts_st_per_block", r.bankConflictsStorePerBlock},
          {"bank_conflicts_per_warp_ld", orNull(r.bankConflictsPerWarpLoad)},
          {"bank_conflicts_per_warp_st", orNull(r.bankConflictsPerWarpStore)},
          {"ops", r.ops},
          {"ops_per_block", r.opsPerBlock},
          {"unknown_accesses", r.unknownAccesses},
          {"memory_time_us", r.memoryTimeUs(device)},
          {"compute_time_us", r.computeTimeUs(device)},
          {"bound_time_us", r.boundTimeUs(device)},
          {"bound", r.memoryBound(device) ? "memory" : "compute"}};
      k["sector_efficiency"] = r.sectorEfficiency
                                   ? llvm::json::Value(*r.sectorEfficiency)
                                   : llvm::json::Value(nullptr);
      k["arithmetic_intensity"] =
          r.arithmeticIntensity() < 0
              ? llvm::json::Value(nullptr)
              : llvm::json::Value(r.arithmeticIntensity());
      kernels.push_back(std::move(k));
    }
    if (json.empty())
      return;
    std::string err;
    auto file = openOutputFile(json, &err);
    if (!file) {
      emitError(getOperation().getLoc()) << "memopt-report-traffic: " << err;
      return signalPassFailure();
    }
    llvm::json::Object doc{
        {"format", "memopt-traffic-report"},
        {"device", llvm::json::Object{{"bandwidth_gbs", device.bandwidthGBs},
                                      {"peak_gops", device.peakGops}}},
        {"kernels", std::move(kernels)}};
    file->os() << llvm::formatv("{0:2}", llvm::json::Value(std::move(doc)))
               << "\n";
    file->keep();
  }
};
} // namespace
