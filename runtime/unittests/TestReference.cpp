//===- TestReference.cpp - Tiny CPU reference for the tests -----*- C++ -*-===//
//
// Part of the memopt project.
//
//===----------------------------------------------------------------------===//
//
// This file implements entry points with the CPU reference calling
// convention (one void* per input/output buffer) for ReferenceTest and the
// memopt-run end-to-end tests; it is built as a shared module.
//
//===----------------------------------------------------------------------===//

#include <cstdint>

extern "C" {
/// out[i] = a[i] + b[i] for the 1024-element f32 test workload.
void memopt_test_add(void *a, void *b, void *out) {
  const float *x = static_cast<const float *>(a);
  const float *y = static_cast<const float *>(b);
  float *z = static_cast<float *>(out);
  for (int i = 0; i < 1024; ++i)
    z[i] = x[i] + y[i];
}

/// Evaluations of a + b for the verdict tests: a coarse "literal" one (to
/// multiples of 1/16, as a poor accumulation order would be) and a fine
/// "pairwise" one (to multiples of 2^-20); memopt_test_add is the f64 one.
static void addRounded(void *a, void *b, void *out, float step) {
  const float *x = static_cast<const float *>(a);
  const float *y = static_cast<const float *>(b);
  float *z = static_cast<float *>(out);
  for (int i = 0; i < 1024; ++i) {
    float v = (x[i] + y[i]) / step;
    z[i] = static_cast<float>(static_cast<int64_t>(v + (v < 0 ? -0.5f : 0.5f))) * step;
  }
}
void memopt_test_add_coarse(void *a, void *b, void *out) {
  addRounded(a, b, out, 1.0f / 16);
}
void memopt_test_add_fine(void *a, void *b, void *out) {
  addRounded(a, b, out, 1.0f / (1 << 20));
}

/// AoS reference of the layout tests: p is f32[64, 4] (records of 4 fields),
/// out[i] = p[i].f1 + 2 * p[i].f2.
void memopt_test_aos_ref(void *p, void *out) {
  const float *x = static_cast<const float *>(p);
  float *z = static_cast<float *>(out);
  for (int i = 0; i < 64; ++i)
    z[i] = x[i * 4 + 1] + 2.0f * x[i * 4 + 2];
}

/// SoA ("optimized-host") version of memopt_test_aos_ref: the two used fields
/// arrive as separate arrays, in an order that differs from the default
/// (output first, then field 2, then field 1), so only entry_args binds them.
void memopt_test_recscale(void *p, void *out) {
  const float *x = static_cast<const float *>(p);
  float *z = static_cast<float *>(out);
  for (int i = 0; i < 64; ++i)
    for (int f = 0; f < 4; ++f)
      z[i * 4 + f] = f < 2 ? 2.0f * x[i * 4 + f] : x[i * 4 + f];
}

void memopt_test_soa_opt(void *out, void *f2, void *f1) {
  const float *a = static_cast<const float *>(f1);
  const float *b = static_cast<const float *>(f2);
  float *z = static_cast<float *>(out);
  for (int i = 0; i < 64; ++i)
    z[i] = a[i] + 2.0f * b[i];
}

/// Like memopt_test_soa_opt, but also writes its (derived) input f1.
void memopt_test_soa_clobber(void *out, void *f2, void *f1) {
  memopt_test_soa_opt(out, f2, f1);
  static_cast<float *>(f1)[0] = 99.0f;
}

/// Copies the first int32 of p0..p30 into p31[0..30]: proves that all 32
/// pointers arrive, in order.
void memopt_test_args32(void *p0, void *p1, void *p2, void *p3, void *p4,
                        void *p5, void *p6, void *p7, void *p8, void *p9,
                        void *p10, void *p11, void *p12, void *p13, void *p14,
                        void *p15, void *p16, void *p17, void *p18, void *p19,
                        void *p20, void *p21, void *p22, void *p23, void *p24,
                        void *p25, void *p26, void *p27, void *p28, void *p29,
                        void *p30, void *p31) {
  void *in[31] = {p0,  p1,  p2,  p3,  p4,  p5,  p6,  p7,  p8,  p9,  p10,
                  p11, p12, p13, p14, p15, p16, p17, p18, p19, p20, p21,
                  p22, p23, p24, p25, p26, p27, p28, p29, p30};
  int32_t *out = static_cast<int32_t *>(p31);
  for (int k = 0; k < 31; ++k)
    out[k] = *static_cast<int32_t *>(in[k]);
}
}
