"""Reference cases for the functional layers linear, leaky_relu, pad and
scaled_dot_product_attention (tests/nn/functional_test.cpp)."""
import torch
import torch.nn.functional as F

from op_case import Case, S

# Which key each of 3 queries may attend to; the second query may attend to none.
SDPA_MASK = torch.tensor([[True, False, True, True, False],
                          [False, False, False, False, False],
                          [True, True, True, True, True]])

CASES = {
    "linear": Case(F.linear, [S(4, 3), S(5, 3), S(5)]),
    "linear_no_bias": Case(F.linear, [S(4, 3), S(5, 3)]),
    "linear_batched": Case(F.linear, [S(2, 4, 3), S(5, 3), S(5)]),
    "linear_vector": Case(F.linear, [S(3), S(5, 3), S(5)]),
    "leaky_relu": Case(F.leaky_relu, [S(3, 4)]),
    "leaky_relu_slope": Case(lambda x: F.leaky_relu(x, 0.2), [S(3, 4)]),
    # Appended so the cases above keep their random draws.
    "pad_constant": Case(lambda x: F.pad(x, (1, 2)), [S(2, 3)]),
    "pad_constant_value_2d": Case(lambda x: F.pad(x, (1, 0, 2, 1), value=0.5), [S(2, 3, 4)]),
    "pad_negative": Case(lambda x: F.pad(x, (-1, 2, 1, -2)), [S(3, 4)]),
    "pad_reflect": Case(lambda x: F.pad(x, (2, 1), mode="reflect"), [S(2, 3, 5)]),
    "pad_reflect_2d": Case(lambda x: F.pad(x, (1, 1, 2, 0), mode="reflect"), [S(1, 2, 4, 5)]),
    "pad_replicate_2d": Case(lambda x: F.pad(x, (2, 1, 1, 3), mode="replicate"), [S(2, 3, 4)]),
    "pad_replicate_3d":
        Case(lambda x: F.pad(x, (1, 0, 0, 1, 1, 1), mode="replicate"), [S(1, 2, 3, 3, 2)]),
    "pad_circular": Case(lambda x: F.pad(x, (2, 4), mode="circular"), [S(1, 2, 4)]),
    "sdpa": Case(F.scaled_dot_product_attention, [S(2, 3, 4), S(2, 5, 4), S(2, 5, 6)]),
    "sdpa_causal":
        Case(lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True),
             [S(2, 2, 4, 8), S(2, 2, 4, 8), S(2, 2, 4, 8)]),
    "sdpa_causal_rectangular":
        Case(lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True),
             [S(1, 3, 4), S(1, 5, 4), S(1, 5, 2)]),
    "sdpa_bool_mask_with_an_empty_row":
        Case(lambda q, k, v: F.scaled_dot_product_attention(q, k, v, attn_mask=SDPA_MASK),
             [S(2, 3, 4), S(2, 5, 4), S(2, 5, 6)]),
    "sdpa_float_mask_and_scale":
        Case(lambda q, k, v, m: F.scaled_dot_product_attention(q, k, v, attn_mask=m, scale=0.3),
             [S(2, 3, 4), S(2, 5, 4), S(2, 5, 6), S(3, 5)]),
    "interpolate_nearest_size": Case(lambda x: F.interpolate(x, size=4), [S(2, 3, 10)]),
    "interpolate_nearest_scale_2d":
        Case(lambda x: F.interpolate(x, scale_factor=(2, 1.5)), [S(1, 2, 3, 4)]),
    "interpolate_nearest_downscale":
        Case(lambda x: F.interpolate(x, scale_factor=0.3), [S(1, 2, 10)]),
    "interpolate_nearest_3d": Case(lambda x: F.interpolate(x, size=(3, 2, 5)), [S(1, 1, 2, 3, 4)]),
    "interpolate_linear": Case(lambda x: F.interpolate(x, size=7, mode="linear"), [S(2, 3, 4)]),
    "interpolate_linear_downscale":
        Case(lambda x: F.interpolate(x, scale_factor=0.3, mode="linear"), [S(1, 2, 10)]),
    "interpolate_linear_align_corners":
        Case(lambda x: F.interpolate(x, size=7, mode="linear", align_corners=True), [S(2, 3, 4)]),
    "interpolate_bilinear":
        Case(lambda x: F.interpolate(x, scale_factor=2, mode="bilinear"), [S(1, 2, 3, 4)]),
    "interpolate_bilinear_size_align_corners":
        Case(lambda x: F.interpolate(x, size=(5, 2), mode="bilinear", align_corners=True),
             [S(2, 1, 3, 4)]),
    # Appended so the cases above keep their draws. A scale factor of 1.05 keeps 10 elements but
    # still maps positions by 1 / 1.05. Forward only: PyTorch's backward copies the gradient
    # through unchanged when the sizes match, which is not its forward's gradient (accel's is,
    # as the finite-difference check confirms).
    "interpolate_nearest_scale_keeps_size":
        Case(lambda x: F.interpolate(x, scale_factor=1.05), [S(1, 2, 10)], grad=False),
    "interpolate_nearest_exact":
        Case(lambda x: F.interpolate(x, scale_factor=(2.5, 0.6), mode="nearest-exact"),
             [S(1, 2, 3, 5)]),
    "interpolate_bicubic":
        Case(lambda x: F.interpolate(x, scale_factor=2, mode="bicubic"), [S(1, 2, 3, 4)]),
    "interpolate_bicubic_downscale":
        Case(lambda x: F.interpolate(x, scale_factor=0.6, mode="bicubic"), [S(1, 1, 7, 9)]),
    "interpolate_bicubic_align_corners":
        Case(lambda x: F.interpolate(x, size=(2, 5), mode="bicubic", align_corners=True),
             [S(2, 1, 5, 4)]),
    "interpolate_trilinear":
        Case(lambda x: F.interpolate(x, size=(3, 4, 2), mode="trilinear"), [S(1, 2, 2, 3, 4)]),
    "interpolate_area_downscale":
        Case(lambda x: F.interpolate(x, size=(3, 2), mode="area"), [S(1, 2, 7, 5)]),
    "interpolate_area_upscale":
        Case(lambda x: F.interpolate(x, size=7, mode="area"), [S(2, 1, 4)]),
    "interpolate_area_3d":
        Case(lambda x: F.interpolate(x, scale_factor=0.5, mode="area"), [S(1, 1, 4, 4, 6)]),
    "pixel_shuffle": Case(lambda x: F.pixel_shuffle(x, 2), [S(2, 8, 3, 2)]),
    "pixel_shuffle_unbatched": Case(lambda x: F.pixel_shuffle(x, 3), [S(9, 2, 1)]),
    "pixel_unshuffle": Case(lambda x: F.pixel_unshuffle(x, 2), [S(2, 1, 3, 2, 4)]),
    "bilinear": Case(F.bilinear, [S(4, 3), S(4, 2), S(5, 3, 2), S(5)]),
    "bilinear_no_bias_batched": Case(F.bilinear, [S(2, 3, 3), S(2, 3, 2), S(4, 3, 2)]),
    "bilinear_vectors": Case(F.bilinear, [S(3), S(2), S(4, 3, 2), S(4)]),
    "channel_shuffle": Case(lambda x: F.channel_shuffle(x, 3), [S(2, 6, 2, 3)]),
    "channel_shuffle_1d": Case(lambda x: F.channel_shuffle(x, 2), [S(3, 4, 5)]),
}
