// RUN: memopt-opt %s --pass-pipeline="builtin.module(func.func(memopt-form-kernels{strategy=naive}, memopt-launch-to-loops), memopt-host-lowering-stage)" | FileCheck %s

// Kernels run as loops lower to plain LLVM for the CPU, bf16 conversions
// expanded into integer arithmetic (no __truncsfbf2 on the host).
// CHECK-LABEL: llvm.func @bf16_scale(%{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr)
// CHECK:         llvm.load %{{.+}} : !llvm.ptr -> bf16
// CHECK:         llvm.bitcast %{{.+}} : bf16 to i16
// CHECK:         llvm.shl
// CHECK:         llvm.fmul
// CHECK-NOT:     llvm.fptrunc
// CHECK:         llvm.store %{{.+}}, %{{.+}} : bf16, !llvm.ptr
// CHECK-NOT:     gpu.
// CHECK-NOT:     scf.
// CHECK-NOT:     llvm.call @__truncsfbf2
#id = affine_map<(d0) -> (d0)>
func.func @bf16_scale(%a: memref<512xbf16>, %o: memref<512xbf16>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<512xbf16>) outs(%o : memref<512xbf16>) {
  ^bb0(%x: bf16, %z: bf16):
    %f = arith.extf %x : bf16 to f32
    %m = arith.mulf %f, %f : f32
    %t = arith.truncf %m : f32 to bf16
    linalg.yield %t : bf16
  }
  return
}
