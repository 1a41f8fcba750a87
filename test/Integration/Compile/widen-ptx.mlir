// Hand-written kernels through the lowering stage: consecutive scalar
// accesses proven 16-byte aligned become ld.global.nc.v4 (the input is
// read-only and distinct from the output at the launch) and st.global.v4;
// a run starting at 4 * tid + 3 keeps its unproven ends scalar and widens
// the 8-byte-aligned pair inside it; an input that is also written is not
// read through the non-coherent path.
// RUN: memopt-opt %s --memopt-lowering-stage 2>/dev/null | FileCheck %s

// CHECK: .entry aligned(
// CHECK:   ld.global.nc.v4.b32
// CHECK:   st.global.v4.b32
// CHECK: .entry misaligned(
// CHECK-NOT: .v4.
// CHECK:   ld.global.nc.b32
// CHECK:   ld.global.nc.v2.b32
// CHECK:   ld.global.nc.b32
// CHECK-NOT: .v4.
// CHECK: .entry in_place(
// CHECK-NOT: ld.global.nc
// CHECK:   ld.global.v4.b32
// CHECK:   st.global.v4.b32

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @aligned(%a: memref<4096xf32>, %o: memref<4096xf32>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      %c256 = arith.constant 256 : index
      %c4 = arith.constant 4 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %t0 = arith.muli %bx, %c256 : index
      %t = arith.addi %t0, %tx : index
      %i = arith.muli %t, %c4 : index
      %i1 = arith.addi %i, %c1 : index
      %i2 = arith.addi %i, %c2 : index
      %i3 = arith.addi %i, %c3 : index
      %x0 = memref.load %a[%i] : memref<4096xf32>
      %x1 = memref.load %a[%i1] : memref<4096xf32>
      %x2 = memref.load %a[%i2] : memref<4096xf32>
      %x3 = memref.load %a[%i3] : memref<4096xf32>
      %y0 = arith.mulf %x0, %x0 : f32
      %y1 = arith.mulf %x1, %x1 : f32
      %y2 = arith.mulf %x2, %x2 : f32
      %y3 = arith.mulf %x3, %x3 : f32
      memref.store %y0, %o[%i] : memref<4096xf32>
      memref.store %y1, %o[%i1] : memref<4096xf32>
      memref.store %y2, %o[%i2] : memref<4096xf32>
      memref.store %y3, %o[%i3] : memref<4096xf32>
      gpu.return
    }
    gpu.func @misaligned(%a: memref<4100xf32>, %o: memref<1024xf32>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      %c256 = arith.constant 256 : index
      %c4 = arith.constant 4 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %t0 = arith.muli %bx, %c256 : index
      %t = arith.addi %t0, %tx : index
      %i0 = arith.muli %t, %c4 : index
      %i = arith.addi %i0, %c3 : index
      %i1 = arith.addi %i, %c1 : index
      %i2 = arith.addi %i, %c2 : index
      %i3 = arith.addi %i, %c3 : index
      %x0 = memref.load %a[%i] : memref<4100xf32>
      %x1 = memref.load %a[%i1] : memref<4100xf32>
      %x2 = memref.load %a[%i2] : memref<4100xf32>
      %x3 = memref.load %a[%i3] : memref<4100xf32>
      %s0 = arith.addf %x0, %x3 : f32
      %s1 = arith.addf %x1, %x2 : f32
      %s = arith.mulf %s0, %s1 : f32
      memref.store %s, %o[%t] : memref<1024xf32>
      gpu.return
    }
    gpu.func @in_place(%a: memref<4096xf32>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      %c256 = arith.constant 256 : index
      %c4 = arith.constant 4 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %t0 = arith.muli %bx, %c256 : index
      %t = arith.addi %t0, %tx : index
      %i = arith.muli %t, %c4 : index
      %i1 = arith.addi %i, %c1 : index
      %i2 = arith.addi %i, %c2 : index
      %i3 = arith.addi %i, %c3 : index
      %x0 = memref.load %a[%i] : memref<4096xf32>
      %x1 = memref.load %a[%i1] : memref<4096xf32>
      %x2 = memref.load %a[%i2] : memref<4096xf32>
      %x3 = memref.load %a[%i3] : memref<4096xf32>
      %y0 = arith.addf %x0, %x0 : f32
      %y1 = arith.addf %x1, %x1 : f32
      %y2 = arith.addf %x2, %x2 : f32
      %y3 = arith.addf %x3, %x3 : f32
      memref.store %y0, %a[%i] : memref<4096xf32>
      memref.store %y1, %a[%i1] : memref<4096xf32>
      memref.store %y2, %a[%i2] : memref<4096xf32>
      memref.store %y3, %a[%i3] : memref<4096xf32>
      gpu.return
    }
  }
  func.func @host(%a: memref<4096xf32>, %o: memref<4096xf32>, %m: memref<4100xf32>, %mo: memref<1024xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @k::@aligned blocks in (%c4, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%a : memref<4096xf32>, %o : memref<4096xf32>)
    gpu.launch_func @k::@misaligned blocks in (%c4, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%m : memref<4100xf32>, %mo : memref<1024xf32>)
    gpu.launch_func @k::@in_place blocks in (%c4, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%o : memref<4096xf32>)
    return
  }
}
