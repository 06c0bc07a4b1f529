#include <gtest/gtest.h>

#include "workload/presets.hpp"

namespace flux::workload {
namespace {

TEST(Presets, ParameterCountsWithinTwoPercentOfPublished) {
  ASSERT_EQ(model_presets().size(), 15u);
  for (const ModelConfig& m : model_presets()) {
    ASSERT_GT(m.published_parameters, 0) << m.name;
    const double p = parameter_count(m).total;
    EXPECT_NEAR(p / m.published_parameters, 1.0, 0.02) << m.name << ": " << p;
  }
}

TEST(Presets, DenseGptLayerIsTwelveHSquaredPlusThirteenH) {
  const ParameterCount c = parameter_count(*find_model_preset("gpt3-175b"));
  const double h = 12288;
  EXPECT_DOUBLE_EQ(c.attention + c.dense_mlp, 12 * h * h + 13 * h);
}

TEST(Presets, Llama3LayerMatchesFluxReconstruction) {
  // Per the Flux paper: ~42 M attention + ~176 M MLP per layer, embedding and head 525 M each.
  const ParameterCount c = parameter_count(*find_model_preset("llama3-8b"));
  EXPECT_NEAR(c.attention / 1e6, 42, 0.1);
  EXPECT_NEAR(c.dense_mlp / 1e6, 176.2, 0.1);
  EXPECT_NEAR(c.embedding / 1e6, 525.3, 0.1);
}

TEST(Presets, LayerTensorsSumToTheLayer) {
  for (const ModelConfig& m : model_presets()) {
    const ParameterCount c = parameter_count(m);
    for (int layer : {0, m.num_layers - 1}) {
      double dense = 0, expert = 0;
      for (const ParamTensor& t : layer_parameter_tensors(m, layer)) {
        EXPECT_GT(t.elems, 0) << m.name;
        (t.expert ? expert : dense) += t.elems;
      }
      const bool moe = m.is_moe_layer(layer);
      EXPECT_NEAR(dense, c.attention + (moe ? c.moe_other : c.dense_mlp), 1e-6) << m.name;
      EXPECT_NEAR(expert, moe ? c.moe_experts : 0, 1e-6) << m.name;
    }
  }
  // Llama-3 8B: fc2 = 14336 x 4096 first, the fused gate/up fc1 (+ norm) next.
  const auto t = layer_parameter_tensors(*find_model_preset("llama3-8b"), 0);
  ASSERT_EQ(t.size(), 4u);
  EXPECT_EQ(t[0].elems, 14336.0 * 4096);
  EXPECT_EQ(t[1].elems, 2 * 14336.0 * 4096 + 4096);
  EXPECT_EQ(t[2].elems, 4096.0 * 4096);
}

TEST(Presets, GpusAndUnknownNames) {
  for (const char* name : {"a100", "h100", "h200", "b200"}) {
    const GpuConfig* g = find_gpu_preset(name);
    ASSERT_NE(g, nullptr) << name;
    EXPECT_GT(g->peak_flops, 1e14);
    EXPECT_GT(g->memory_bandwidth, 1e12);
  }
  EXPECT_EQ(find_gpu_preset("v100x"), nullptr);
  EXPECT_EQ(find_model_preset("gpt-5"), nullptr);
}

}  // namespace
}  // namespace flux::workload
