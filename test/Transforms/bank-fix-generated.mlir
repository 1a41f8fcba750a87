// memopt-bank-fix on the tiles memopt's own transposes stage (formed
// unpadded by memopt-form-kernels): 8-byte (f64), 4-byte (f32) and 2-byte
// (f16) elements; pad grows the row by one access width and at least one
// 4-byte bank word (2 f16: with one, the warps reading odd tile columns
// keep a 2-way conflict, measured on an H200), swizzle XORs the column with
// the row, and the lane model finds no conflict afterwards.
// RUN: memopt-opt %s --pass-pipeline="builtin.module(func.func(memopt-form-kernels{strategy=fused}),memopt-bank-fix{mode=pad})" | FileCheck %s --check-prefix=PAD
// RUN: memopt-opt %s --pass-pipeline="builtin.module(func.func(memopt-form-kernels{strategy=fused}),memopt-bank-fix{mode=swizzle})" | FileCheck %s --check-prefix=SWZ
// RUN: memopt-opt %s --pass-pipeline="builtin.module(func.func(memopt-form-kernels{strategy=fused}),memopt-bank-fix{mode=pad})" | memopt-opt --test-memopt-print-access-patterns 2>&1 | FileCheck %s --check-prefix=MODEL
// RUN: memopt-opt %s --pass-pipeline="builtin.module(func.func(memopt-form-kernels{strategy=fused}),memopt-bank-fix{mode=swizzle})" | memopt-opt --test-memopt-print-access-patterns 2>&1 | FileCheck %s --check-prefix=MODEL
// RUN: memopt-opt %s --pass-pipeline="builtin.module(func.func(memopt-form-kernels{strategy=fused}))" | memopt-opt --test-memopt-print-access-patterns 2>&1 | FileCheck %s --check-prefix=NONE

// MODEL-NOT: bank conflict
// NONE-DAG: shared read of 8 B per lane: 16-way bank conflict
// NONE-DAG: shared read of 4 B per lane: 32-way bank conflict
// NONE-DAG: shared read of 2 B per lane: 16-way bank conflict

#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
func.func @t_f64(%a: memref<96x64xf64>, %o: memref<64x96xf64>) {
  linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<96x64xf64>) outs(%o : memref<64x96xf64>) {
  ^bb0(%x: f64, %y: f64):
    linalg.yield %x : f64
  }
  return
}
// PAD-LABEL: func.func @t_f64
// PAD:         workgroup(%{{.*}} : memref<32x33xf64, #gpu.address_space<workgroup>>)
// SWZ-LABEL: func.func @t_f64
// SWZ:         workgroup(%{{.*}} : memref<32x32xf64, #gpu.address_space<workgroup>>)
// SWZ:         arith.remui %{{.*}}, %c16
// SWZ:         arith.xori

func.func @t_f32(%a: memref<96x64xf32>, %o: memref<64x96xf32>) {
  linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<96x64xf32>) outs(%o : memref<64x96xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  return
}
// PAD-LABEL: func.func @t_f32
// PAD:         workgroup(%{{.*}} : memref<32x33xf32, #gpu.address_space<workgroup>>)
// SWZ-LABEL: func.func @t_f32
// SWZ:         arith.remui %{{.*}}, %c32
// SWZ:         arith.xori

func.func @t_f16(%a: memref<96x64xf16>, %o: memref<64x96xf16>) {
  linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<96x64xf16>) outs(%o : memref<64x96xf16>) {
  ^bb0(%x: f16, %y: f16):
    linalg.yield %x : f16
  }
  return
}
// PAD-LABEL: func.func @t_f16
// PAD:         workgroup(%{{.*}} : memref<32x34xf16, #gpu.address_space<workgroup>>)
// SWZ-LABEL: func.func @t_f16
// SWZ:         arith.remui %{{.*}}, %c32
// SWZ:         arith.xori
