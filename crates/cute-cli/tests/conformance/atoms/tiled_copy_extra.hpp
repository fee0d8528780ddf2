#include <cute/tensor.hpp>
#include <cute/atom/copy_atom.hpp>
#include <cute/atom/mma_atom.hpp>
#include <cstdio>
using namespace cute;
template <class X> void q(const char* key, X const& x, bool comma = true) { printf("\"%s\":\"", key); print(x); printf("\"%s", comma ? "," : ""); }
template <class TC, class Tensor, class Frag>
void parts(TC const& tc, Tensor const& tensor, Frag const* frag_mma) {
  int n = size(tc);
  int ts[2] = {0, (n - 1 < n / 2 + 1) ? n - 1 : n / 2 + 1};
  printf("\"threads\":[");
  for (int k = 0; k < 2; ++k) {
    auto sl = tc.get_slice(ts[k]);
    auto ps = sl.partition_S(tensor); auto pd = sl.partition_D(tensor);
    printf("%s{\"t\":%d,", k ? "," : "", ts[k]);
    q("partition_s", ps.layout()); printf("\"offset_s\":%d,", int(*ps.data()));
    q("partition_d", pd.layout()); printf("\"offset_d\":%d}", int(*pd.data()));
  }
  printf("]");
}
template <class TC, class L>
void plain(const char* op, const char* args, const char* order, TC const& tc, L const& layout, bool swz) {
  printf("{\"op\":\"%s\",\"args\":%s,\"tensor_order\":\"%s\",\"cute\":{", op, args, order);
  q("tiler_mn", typename TC::Tiler_MN{}); q("tiled_layout_tv", typename TC::TiledLayout_TV{});
  q("layout_s_tv", tc.get_layoutS_TV()); q("layout_d_tv", tc.get_layoutD_TV()); printf("\"size\":%d,", int(size(tc)));
  q("tensor", layout);
  auto tensor = make_tensor(counting_iterator<int>(0), layout);
  parts(tc, tensor, (int*)nullptr);
  if (!swz) {
    auto frag = make_fragment_like(tc.get_slice(0).partition_D(tensor));
    printf(",\"retile\":{\"t\":0,"); q("fragment", frag.layout()); q("retile_d", tc.get_slice(0).retile_D(frag).layout()); q("retile_s", tc.get_slice(0).retile_S(frag).layout(), false); printf("}");
  }
  printf("}}\n");
}
template <int which, class TC, class MMA, class L>
void mmacopy(const char* op, const char* args, const char* order, TC const& tc, MMA const& mma, L const& layout, bool swz) {
  printf("{\"op\":\"%s\",\"args\":%s,\"tensor_order\":\"%s\",\"cute\":{", op, args, order);
  q("tiler_mn", typename TC::Tiler_MN{}); q("tiled_layout_tv", typename TC::TiledLayout_TV{});
  q("layout_s_tv", tc.get_layoutS_TV()); q("layout_d_tv", tc.get_layoutD_TV()); printf("\"size\":%d,", int(size(tc)));
  q("tensor", layout);
  auto tensor = make_tensor(counting_iterator<int>(0), layout);
  parts(tc, tensor, (int*)nullptr);
  if (!swz) {
    auto ms = mma.get_slice(0);
    auto go = [&](auto frag) {
      printf(",\"retile\":{\"t\":0,"); q("fragment", frag.layout()); q("retile_d", tc.get_slice(0).retile_D(frag).layout()); q("retile_s", tc.get_slice(0).retile_S(frag).layout(), false); printf("}");
    };
    if constexpr (which == 0) go(ms.partition_fragment_A(tensor));
    else if constexpr (which == 1) go(ms.partition_fragment_B(tensor));
    else if constexpr (which == 2) go(ms.partition_fragment_C(tensor));
  }
  printf("}}\n");
}
