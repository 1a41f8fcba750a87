// RUN: memopt-opt %s --memopt-report-traffic="json=%t.json bandwidth-gbs=4096 peak-gops=1" -o /dev/null 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON < %t.json

// CHECK: memopt traffic report (roofline device: 4096 GB/s, 1 Gop/s)
// CHECK: kernel{{ +}}grid{{ +}}block{{ +}}read B{{ +}}written B{{ +}}sector{{ +}}bank ld{{ +}}bank st{{ +}}ops{{ +}}op/B{{ +}}bound us{{ +}}bound

// A squaring copy: 8 KiB moved, one multiply per element: 1024 ops,
// 0.125 op/B; at 1 Gop/s it is compute bound (1.02 us against 0.002 us).
// CHECK: square{{ +}}4x1x1{{ +}}256x1x1{{ +}}4096{{ +}}4096{{ +}}100.0%{{ +}}0{{ +}}0{{ +}}1024{{ +}}0.125{{ +}}1.02 compute
// JSON: "arithmetic_intensity": 0.125,
// JSON: "bound": "compute",
// JSON: "bytes_read": 4096,
// JSON: "kernel": "square",
// JSON: "ops": 1024,
// JSON: "sector_efficiency": 1,

// One field of 24-byte records: the load uses 16.7% of the sectors it
// fetches, the store 100%: 28.6% overall. Records of 24 bytes share
// sectors, so the DRAM model counts the whole 24 KiB buffer.
// CHECK: field{{ +}}4x1x1{{ +}}256x1x1{{ +}}24576{{ +}}4096{{ +}}28.6%{{ +}}0{{ +}}0{{ +}}0{{ +}}0.000{{ +}}0.01 memory

// A transpose through an unpadded tile: 32 warps x 31 extra wavefronts.
// CHECK: tile_transpose{{ +}}1x1x1{{ +}}32x32x1{{ +}}4096{{ +}}4096{{ +}}100.0%{{ +}}992{{ +}}0{{ +}}0{{ +}}0.000
// JSON: "bank_conflicts_ld": 992,

// Only known_block_size (issue 21): the per-block figures. The unpadded
// tile again, 32 x 32 threads, no grid: 992 excess wavefronts per block,
// 31 per warp-level load; 1024 operations per block (a square each).
// CHECK: block_only{{ +}}0x0x0{{ +}}32x32x1{{ +}}4096{{ +}}4096{{ +}}100.0%{{ +}}992/blk{{ +}}0/blk{{ +}}1024/blk{{ +}}?
// JSON: "bank_conflicts_ld": -1,
// JSON-NEXT: "bank_conflicts_ld_per_block": 992,
// JSON-NEXT: "bank_conflicts_per_warp_ld": 31,
// JSON: "kernel": "block_only",
// JSON: "ops": -1,
// JSON-NEXT: "ops_per_block": 1024,

// Sizes from the one gpu.launch_func: 2 blocks of 64 threads, a loop of 4
// trips per thread with two operations each.
// CHECK: looped{{ +}}2x1x1{{ +}}64x1x1{{ +}}4096{{ +}}0{{ +}}100.0%{{ +}}0{{ +}}0{{ +}}1024

// No sizes known: counts are unknown, the sector efficiency is still given.
// CHECK: unsized{{ +}}0x0x0{{ +}}0x0x0{{ +}}4096{{ +}}4096{{ +}}100.0%{{ +}}?{{ +}}?{{ +}}?{{ +}}?

// A gpu.launch in a host function.
// CHECK: host (gpu.launch){{ +}}4x1x1{{ +}}256x1x1{{ +}}4096{{ +}}4096{{ +}}100.0%

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @square(%a: memref<1024xf32>, %o: memref<1024xf32>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>, known_grid_size = array<i32: 4, 1, 1>} {
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      %c256 = arith.constant 256 : index
      %b = arith.muli %bx, %c256 : index
      %i = arith.addi %b, %tx : index
      %v = memref.load %a[%i] : memref<1024xf32>
      %s = arith.mulf %v, %v : f32
      memref.store %s, %o[%i] : memref<1024xf32>
      gpu.return
    }
    gpu.func @field(%r: memref<1024x6xf32>, %o: memref<1024xf32>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>, known_grid_size = array<i32: 4, 1, 1>} {
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      %c256 = arith.constant 256 : index
      %c2 = arith.constant 2 : index
      %b = arith.muli %bx, %c256 : index
      %i = arith.addi %b, %tx : index
      %v = memref.load %r[%i, %c2] : memref<1024x6xf32>
      memref.store %v, %o[%i] : memref<1024xf32>
      gpu.return
    }
    gpu.func @tile_transpose(%a: memref<32x32xf32>, %o: memref<32x32xf32>)
        workgroup(%t : memref<32x32xf32, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 32, 32, 1>, known_grid_size = array<i32: 1, 1, 1>} {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %v = memref.load %a[%ty, %tx] : memref<32x32xf32>
      memref.store %v, %t[%ty, %tx] : memref<32x32xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %w = memref.load %t[%tx, %ty] : memref<32x32xf32, #gpu.address_space<workgroup>>
      memref.store %w, %o[%ty, %tx] : memref<32x32xf32>
      gpu.return
    }
    gpu.func @block_only(%a: memref<32x32xf32>, %o: memref<32x32xf32>)
        workgroup(%t : memref<32x32xf32, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 32, 32, 1>} {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %v = memref.load %a[%ty, %tx] : memref<32x32xf32>
      memref.store %v, %t[%ty, %tx] : memref<32x32xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %w = memref.load %t[%tx, %ty] : memref<32x32xf32, #gpu.address_space<workgroup>>
      %sq = arith.mulf %w, %w : f32
      memref.store %sq, %o[%ty, %tx] : memref<32x32xf32>
      gpu.return
    }
    gpu.func @looped(%a: memref<1024xf32>, %o: memref<128xf32>) kernel {
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %b = arith.muli %bx, %c64 : index
      %i = arith.addi %b, %tx : index
      %zero = arith.constant 0.0 : f32
      %sum = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> (f32) {
        %off = arith.muli %k, %c128 : index
        %j = arith.addi %off, %i : index
        %v = memref.load %a[%j] : memref<1024xf32>
        %sq = arith.mulf %v, %v : f32
        %n = arith.addf %acc, %sq : f32
        scf.yield %n : f32
      }
      gpu.return
    }
    gpu.func @unsized(%a: memref<1024xf32>, %o: memref<1024xf32>) kernel {
      %tx = gpu.thread_id x
      %v = memref.load %a[%tx] : memref<1024xf32>
      memref.store %v, %o[%tx] : memref<1024xf32>
      gpu.return
    }
  }
  func.func @launch_looped(%a: memref<1024xf32>, %o: memref<128xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @m::@looped blocks in (%c2, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%a : memref<1024xf32>, %o : memref<128xf32>)
    return
  }
  func.func @host(%a: memref<1024xf32>, %o: memref<1024xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c256 = arith.constant 256 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
      %b = arith.muli %bx, %c256 : index
      %i = arith.addi %b, %tx : index
      %v = memref.load %a[%i] : memref<1024xf32>
      memref.store %v, %o[%i] : memref<1024xf32>
      gpu.terminator
    }
    return
  }
}
