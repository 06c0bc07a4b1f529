#include <gtest/gtest.h>

#include "workload/presets.hpp"

namespace flux {
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
  // reference/flux.md §5: ~42 M attention + ~176 M MLP per layer, embedding and head 525 M each.
  const ParameterCount c = parameter_count(*find_model_preset("llama3-8b"));
  EXPECT_NEAR(c.attention / 1e6, 42, 0.1);
  EXPECT_NEAR(c.dense_mlp / 1e6, 176.2, 0.1);
  EXPECT_NEAR(c.embedding / 1e6, 525.3, 0.1);
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
}  // namespace flux
