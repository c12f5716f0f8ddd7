"""Reference cases for the nn layers (tests/nn/layers_test.cpp): each layer's forward with its
parameters passed as inputs, so the fixture holds the weight gradients too."""
import torch
import torch.nn.functional as F

from op_case import Case, S
from torch.nn.utils.rnn import pack_padded_sequence as pack
from torch.nn.utils.rnn import pack_sequence, pad_packed_sequence, pad_sequence


def unpacked(sequence, batch_first=False):
    return pad_packed_sequence(sequence, batch_first=batch_first)[0]


def mha(q, k, v, in_w, in_b, out_w, out_b, **options):
    return F.multi_head_attention_forward(q, k, v, 4, 2, in_w, in_b, None, None, False, 0.0,
                                          out_w, out_b, training=False, **options)


# Padding keys per batch element (true = ignore) and keys each of 3 queries must not attend to.
MHA_PADDING = torch.tensor([[False, False, False, True, True], [False] * 5])
MHA_MASK = torch.tensor([[False, True, False, False, False],
                         [False, False, True, True, False],
                         [True, False, False, False, False]])
MHA_MASK_WITH_AN_EMPTY_ROW = torch.tensor([[False, True, False, False, False],
                                           [False, False, False, False, False],
                                           [False, False, True, False, False]])
MHA_MASK_WITH_AN_EMPTY_ROW[1, :3] = True  # with the padding, query 1 of batch 0 sees no key


ENCODER_LAYER_SHAPES = [S(12, 4), S(12), S(4, 4), S(4), S(6, 4), S(6), S(4, 6), S(4),
                        S(4), S(4), S(4), S(4)]
ENCODER_MASK = torch.tensor([[False, True, False, False, True]] * 5)


def encoder_layer(x, params, activation="relu", **masks):
    layer = torch.nn.TransformerEncoderLayer(4, 2, dim_feedforward=6, dropout=0.0,
                                             activation=activation).eval()
    names = [name for name, _ in layer.named_parameters()]
    return torch.func.functional_call(layer, dict(zip(names, params)), (x,), masks)


def encoder(x, params, **masks):
    layer = torch.nn.TransformerEncoderLayer(4, 2, dim_feedforward=6, dropout=0.0)
    stack = torch.nn.TransformerEncoder(layer, 2, norm=torch.nn.LayerNorm(4),
                                        enable_nested_tensor=False).eval()
    names = [name for name, _ in stack.named_parameters()]
    return torch.func.functional_call(stack, dict(zip(names, params)), (x,), masks)


DECODER_LAYER_SHAPES = [S(12, 4), S(12), S(4, 4), S(4)] * 2 + ENCODER_LAYER_SHAPES[4:] + [S(4), S(4)]
# Target positions may not attend to later ones (true = ignore); target 1 of batch 0 is padding.
DECODER_CAUSAL_MASK = torch.triu(torch.ones(4, 4, dtype=torch.bool), 1)
DECODER_TGT_PADDING = torch.tensor([[False, True, False, False], [False] * 4])


def with_parameters(module, params, *inputs, **masks):
    """module's forward on inputs, its parameters (in PyTorch's order) replaced by params."""
    names = [name for name, _ in module.named_parameters()]
    return torch.func.functional_call(module, dict(zip(names, params)), inputs, masks)


def decoder_layer(tgt, memory, params, **masks):
    layer = torch.nn.TransformerDecoderLayer(4, 2, dim_feedforward=6, dropout=0.0).eval()
    return with_parameters(layer, params, tgt, memory, **masks)


def decoder(tgt, memory, params, **masks):
    layer = torch.nn.TransformerDecoderLayer(4, 2, dim_feedforward=6, dropout=0.0)
    stack = torch.nn.TransformerDecoder(layer, 2, norm=torch.nn.LayerNorm(4)).eval()
    return with_parameters(stack, params, tgt, memory, **masks)


def transformer(src, tgt, params, **masks):
    model = torch.nn.Transformer(4, 2, num_encoder_layers=1, num_decoder_layers=1,
                                 dim_feedforward=6, dropout=0.0).eval()
    return with_parameters(model, params, src, tgt, **masks)


def recurrent(make, data, pick, call=lambda *args: args):
    """A recurrent layer's case: its data inputs, then its parameters in PyTorch's order."""
    module = make()
    names = [name for name, _ in module.named_parameters()]
    shapes = [S(*p.shape) for _, p in module.named_parameters()]

    def run(*args):
        params = dict(zip(names, args[len(data):]))
        return pick(torch.func.functional_call(module, params, call(*args[:len(data)])))
    return Case(run, data + shapes)

CASES = {
    "linear": Case(lambda x, w, b: F.linear(x, w, b), [S(4, 3), S(5, 3), S(5)]),
    "linear_no_bias": Case(lambda x, w: F.linear(x, w), [S(2, 3), S(4, 3)]),
    "linear_batched": Case(lambda x, w, b: F.linear(x, w, b), [S(2, 3, 4), S(2, 4), S(2)]),
    "leaky_relu": Case(lambda x: F.leaky_relu(x, 0.2), [S(3, 4)]),
    "gelu_tanh": Case(lambda x: F.gelu(x, approximate="tanh"), [S(3, 4)]),
    "softmax": Case(lambda x: F.softmax(x, 1), [S(2, 5)]),
    "log_softmax": Case(lambda x: F.log_softmax(x, 0), [S(3, 2)]),
    "flatten": Case(lambda x: torch.flatten(x, 1), [S(2, 3, 2)]),
    "embedding": Case(lambda i, w: F.embedding(i, w), [S(2, 3, domain="int:0:5"), S(5, 4)]),
    "sequential_mlp": Case(lambda x, w1, b1, w2, b2: F.linear(F.relu(F.linear(x, w1, b1)), w2, b2),
                           [S(3, 4), S(5, 4), S(5), S(2, 5), S(2)]),
    # Multi-head attention through F.multi_head_attention_forward with its parameters as inputs
    # (embed_dim 4, 2 heads; query [L=3, N=2, 4], keys [S=5, N=2, .]). Appended so the cases
    # above keep their random draws.
    "mha_self": Case(lambda x, wi, bi, wo, bo: mha(x, x, x, wi, bi, wo, bo)[0],
                     [S(3, 2, 4), S(12, 4), S(12), S(4, 4), S(4)]),
    "mha_weights": Case(lambda q, k, v, wi, bi, wo, bo: mha(q, k, v, wi, bi, wo, bo)[1],
                        [S(3, 2, 4), S(5, 2, 4), S(5, 2, 4), S(12, 4), S(12), S(4, 4), S(4)]),
    "mha_weights_per_head":
        Case(lambda q, k, v, wi, bi, wo, bo:
             mha(q, k, v, wi, bi, wo, bo, average_attn_weights=False)[1],
             [S(3, 2, 4), S(5, 2, 4), S(5, 2, 4), S(12, 4), S(12), S(4, 4), S(4)]),
    "mha_bool_masks":
        Case(lambda q, k, v, wi, bi, wo, bo:
             mha(q, k, v, wi, bi, wo, bo, key_padding_mask=MHA_PADDING, attn_mask=MHA_MASK)[0],
             [S(3, 2, 4), S(5, 2, 4), S(5, 2, 4), S(12, 4), S(12), S(4, 4), S(4)]),
    "mha_bool_masks_without_weights":
        Case(lambda q, k, v, wi, bi, wo, bo:
             mha(q, k, v, wi, bi, wo, bo, key_padding_mask=MHA_PADDING,
                 attn_mask=MHA_MASK_WITH_AN_EMPTY_ROW, need_weights=False)[0],
             [S(3, 2, 4), S(5, 2, 4), S(5, 2, 4), S(12, 4), S(12), S(4, 4), S(4)]),
    "mha_unbatched_float_mask":
        Case(lambda q, k, v, m, wi, bi, wo, bo: mha(q, k, v, wi, bi, wo, bo, attn_mask=m)[0],
             [S(3, 4), S(5, 4), S(5, 4), S(3, 5), S(12, 4), S(12), S(4, 4), S(4)]),
    "mha_bias_kv_zero_attn":
        Case(lambda q, k, v, wi, bi, bk, bv, wo, bo:
             F.multi_head_attention_forward(q, k, v, 4, 2, wi, bi, bk, bv, True, 0.0, wo, bo,
                                            training=False, key_padding_mask=MHA_PADDING)[0],
             [S(3, 2, 4), S(5, 2, 4), S(5, 2, 4), S(12, 4), S(12), S(1, 1, 4), S(1, 1, 4),
              S(4, 4), S(4)]),
    "mha_separate_projections":
        Case(lambda q, k, v, wq, wk, wv, bi, wo, bo:
             F.multi_head_attention_forward(q, k, v, 4, 2, None, bi, None, None, False, 0.0, wo,
                                            bo, training=False, use_separate_proj_weight=True,
                                            q_proj_weight=wq, k_proj_weight=wk,
                                            v_proj_weight=wv)[0],
             [S(3, 2, 4), S(5, 2, 3), S(5, 2, 6), S(4, 4), S(4, 3), S(4, 6), S(12), S(4, 4),
              S(4)]),
    "mha_no_bias": Case(lambda x, wi, wo: mha(x, x, x, wi, None, wo, None)[0],
                        [S(3, 2, 4), S(12, 4), S(4, 4)]),
    # nn.TransformerEncoderLayer(d_model 4, 2 heads, feed-forward 6, no dropout) called with
    # its parameters as inputs (in PyTorch's order), on src [S=5, N=2, 4].
    "transformer_encoder_layer":
        Case(lambda x, *p: encoder_layer(x, p), [S(5, 2, 4)] + ENCODER_LAYER_SHAPES),
    "transformer_encoder_layer_masks":
        Case(lambda x, *p: encoder_layer(x, p, src_mask=ENCODER_MASK,
                                         src_key_padding_mask=MHA_PADDING),
             [S(5, 2, 4)] + ENCODER_LAYER_SHAPES),
    "transformer_encoder_layer_gelu":
        Case(lambda x, *p: encoder_layer(x, p, activation="gelu"), [S(5, 2, 4)] + ENCODER_LAYER_SHAPES),
    # nn.TransformerEncoder of two such layers and a final LayerNorm(4), parameters as inputs.
    "transformer_encoder":
        Case(lambda x, *p: encoder(x, p, mask=ENCODER_MASK),
             [S(5, 2, 4)] + ENCODER_LAYER_SHAPES * 2 + [S(4), S(4)]),
    # Recurrent layers with their parameters as inputs (after the data inputs).
    "rnn_tanh": recurrent(lambda: torch.nn.RNN(3, 4), [S(5, 2, 3), S(1, 2, 4)], lambda o: o[0]),
    "rnn_relu_two_layers_h_n":
        recurrent(lambda: torch.nn.RNN(3, 4, num_layers=2, nonlinearity="relu"), [S(5, 2, 3)],
                  lambda o: o[1]),
    "lstm": recurrent(lambda: torch.nn.LSTM(3, 4), [S(5, 2, 3)], lambda o: o[0]),
    "lstm_stacked_bidirectional_batch_first":
        recurrent(lambda: torch.nn.LSTM(3, 4, num_layers=2, bidirectional=True, batch_first=True),
                  [S(2, 5, 3), S(4, 2, 4), S(4, 2, 4)], lambda o: o[0],
                  lambda x, h, c: (x, (h, c))),
    "lstm_stacked_bidirectional_c_n":
        recurrent(lambda: torch.nn.LSTM(3, 4, num_layers=2, bidirectional=True),
                  [S(5, 2, 3), S(4, 2, 4), S(4, 2, 4)], lambda o: o[1][1],
                  lambda x, h, c: (x, (h, c))),
    "lstm_unbatched": recurrent(lambda: torch.nn.LSTM(3, 4), [S(5, 3)], lambda o: o[0]),
    "gru": recurrent(lambda: torch.nn.GRU(3, 4), [S(5, 2, 3)], lambda o: o[0]),
    "gru_bidirectional_h_n":
        recurrent(lambda: torch.nn.GRU(3, 4, bidirectional=True), [S(5, 2, 3), S(2, 2, 4)],
                  lambda o: o[1]),
    "gru_no_bias": recurrent(lambda: torch.nn.GRU(3, 4, bias=False), [S(5, 2, 3)], lambda o: o[0]),
    # nn.TransformerDecoderLayer (d_model 4, 2 heads, feed-forward 6, no dropout) on tgt
    # [T=4, N=2, 4] and memory [S=5, N=2, 4], its 18 parameters as inputs in PyTorch's order.
    "transformer_decoder_layer":
        Case(lambda t, m, *p: decoder_layer(t, m, p), [S(4, 2, 4), S(5, 2, 4)] + DECODER_LAYER_SHAPES),
    "transformer_decoder_layer_masks":
        Case(lambda t, m, *p: decoder_layer(t, m, p, tgt_mask=DECODER_CAUSAL_MASK,
                                            memory_mask=ENCODER_MASK[:4],
                                            tgt_key_padding_mask=DECODER_TGT_PADDING,
                                            memory_key_padding_mask=MHA_PADDING),
             [S(4, 2, 4), S(5, 2, 4)] + DECODER_LAYER_SHAPES),
    # nn.TransformerDecoder of two such layers and a final LayerNorm(4).
    "transformer_decoder":
        Case(lambda t, m, *p: decoder(t, m, p, tgt_mask=DECODER_CAUSAL_MASK),
             [S(4, 2, 4), S(5, 2, 4)] + DECODER_LAYER_SHAPES * 2 + [S(4), S(4)]),
    # nn.Transformer with one encoder and one decoder layer of the same sizes, on src
    # [5, 2, 4] and tgt [4, 2, 4], with its own float causal mask.
    "transformer":
        Case(lambda s, t, *p: transformer(
                 s, t, p, tgt_mask=torch.nn.Transformer.generate_square_subsequent_mask(4),
                 src_key_padding_mask=MHA_PADDING),
             [S(5, 2, 4), S(4, 2, 4)] + ENCODER_LAYER_SHAPES + [S(4), S(4)]
             + DECODER_LAYER_SHAPES + [S(4), S(4)]),
    # A sequence of one step, where each step's state before it is h0 alone, and layers without
    # biases; a bidirectional ReLU RNN's whole output.
    "lstm_one_step_bidirectional_no_bias":
        recurrent(lambda: torch.nn.LSTM(3, 4, bidirectional=True, bias=False), [S(1, 2, 3)],
                  lambda o: o[0]),
    "rnn_relu_bidirectional":
        recurrent(lambda: torch.nn.RNN(3, 4, nonlinearity="relu", bidirectional=True),
                  [S(4, 2, 3), S(2, 2, 4)], lambda o: o[0]),
    "gru_stacked_batch_first_both_outputs":
        recurrent(lambda: torch.nn.GRU(3, 4, num_layers=2, batch_first=True), [S(2, 5, 3)],
                  lambda o: o[0].sum() + o[1].sum()),
    # Sequences of several lengths through PackedSequence: the padded output (zero past each
    # length), the final states (each sequence's own last step), with and without sorting.
    "lstm_packed":
        recurrent(lambda: torch.nn.LSTM(3, 4), [S(5, 3, 3)], lambda o: unpacked(o[0]),
                  lambda x: (pack(x, [5, 3, 2]),)),
    "lstm_packed_unsorted_stacked_bidirectional_states":
        recurrent(lambda: torch.nn.LSTM(3, 4, num_layers=2, bidirectional=True),
                  [S(5, 3, 3), S(4, 3, 4), S(4, 3, 4)], lambda o: torch.cat([o[1][0], o[1][1]]),
                  lambda x, h, c: (pack(x, [2, 5, 3], enforce_sorted=False), (h, c))),
    "gru_packed_unsorted_bidirectional_batch_first":
        recurrent(lambda: torch.nn.GRU(3, 4, bidirectional=True, batch_first=True),
                  [S(3, 4, 3), S(2, 3, 4)],
                  lambda o: torch.cat([unpacked(o[0], batch_first=True).flatten(),
                                       o[1].flatten()]),
                  lambda x, h: (pack(x, [4, 1, 3], batch_first=True, enforce_sorted=False), h)),
    "rnn_packed_data_bidirectional":
        recurrent(lambda: torch.nn.RNN(3, 4, bidirectional=True), [S(4, 3, 3)],
                  lambda o: o[0].data, lambda x: (pack(x, [4, 4, 2]),)),
    "pack_sequence_unsorted":
        Case(lambda a, b, c: pack_sequence([a, b, c], enforce_sorted=False).data,
             [S(3, 2), S(5, 2), S(1, 2)]),
    "pad_sequence_left_batch_first":
        Case(lambda a, b: pad_sequence([a, b], batch_first=True, padding_value=0.5,
                                       padding_side="left"),
             [S(2, 3), S(4, 3)]),
    "pad_packed_sequence_total_length":
        Case(lambda x: pad_packed_sequence(pack(x, [3, 1, 2], enforce_sorted=False),
                                           padding_value=-1.0, total_length=5)[0],
             [S(3, 3, 2)]),
    # PyTorch's batch_first and norm_first (pre-norm) options of attention and the transformer.
    "mha_batch_first":
        Case(lambda q, k, v, *p: with_parameters(
                 torch.nn.MultiheadAttention(4, 2, batch_first=True).eval(), p, q, k, v,
                 key_padding_mask=MHA_PADDING)[0],
             [S(2, 3, 4), S(2, 5, 4), S(2, 5, 4), S(12, 4), S(12), S(4, 4), S(4)]),
    "transformer_encoder_layer_norm_first_batch_first":
        Case(lambda x, *p: with_parameters(
                 torch.nn.TransformerEncoderLayer(4, 2, dim_feedforward=6, dropout=0.0,
                                                  norm_first=True, batch_first=True).eval(),
                 p, x, src_key_padding_mask=MHA_PADDING),
             [S(2, 5, 4)] + ENCODER_LAYER_SHAPES),
    "transformer_decoder_layer_norm_first":
        Case(lambda t, m, *p: with_parameters(
                 torch.nn.TransformerDecoderLayer(4, 2, dim_feedforward=6, dropout=0.0,
                                                  norm_first=True).eval(),
                 p, t, m, tgt_mask=DECODER_CAUSAL_MASK),
             [S(4, 2, 4), S(5, 2, 4)] + DECODER_LAYER_SHAPES),
    "transformer_norm_first_batch_first":
        Case(lambda s, t, *p: with_parameters(
                 torch.nn.Transformer(4, 2, num_encoder_layers=1, num_decoder_layers=1,
                                      dim_feedforward=6, dropout=0.0, norm_first=True,
                                      batch_first=True).eval(),
                 p, s, t, tgt_mask=torch.nn.Transformer.generate_square_subsequent_mask(4),
                 src_key_padding_mask=MHA_PADDING),
             [S(2, 5, 4), S(2, 4, 4)] + ENCODER_LAYER_SHAPES + [S(4), S(4)]
             + DECODER_LAYER_SHAPES + [S(4), S(4)]),
    # One step of a cell: LSTMCell's (h', c') side by side, GRUCell's h', RNNCell's unbatched.
    "lstm_cell":
        recurrent(lambda: torch.nn.LSTMCell(3, 4), [S(2, 3), S(2, 4), S(2, 4)],
                  lambda o: torch.cat([o[0], o[1]]), lambda x, h, c: (x, (h, c))),
    "lstm_cell_no_bias_unbatched":
        recurrent(lambda: torch.nn.LSTMCell(3, 4, bias=False), [S(3)],
                  lambda o: torch.cat([o[0], o[1]])),
    "gru_cell": recurrent(lambda: torch.nn.GRUCell(3, 4), [S(2, 3), S(2, 4)], lambda o: o),
    "rnn_cell_relu_unbatched":
        recurrent(lambda: torch.nn.RNNCell(3, 4, nonlinearity="relu"), [S(3), S(4)],
                  lambda o: o),
    # LSTMs with projections (proj_size 2 < hidden 4): h is 2 wide, c 4.
    "lstm_proj": recurrent(lambda: torch.nn.LSTM(3, 4, proj_size=2), [S(5, 2, 3)], lambda o: o[0]),
    "lstm_proj_stacked_bidirectional_states":
        recurrent(lambda: torch.nn.LSTM(3, 4, num_layers=2, bidirectional=True, proj_size=2),
                  [S(5, 2, 3), S(4, 2, 2), S(4, 2, 4)],
                  lambda o: torch.cat([o[0].flatten(), o[1][0].flatten(), o[1][1].flatten()]),
                  lambda x, h, c: (x, (h, c))),
    "lstm_proj_packed_unsorted":
        recurrent(lambda: torch.nn.LSTM(3, 4, proj_size=3), [S(5, 3, 3)],
                  lambda o: torch.cat([unpacked(o[0]).flatten(), o[1][0].flatten(),
                                       o[1][1].flatten()]),
                  lambda x: (pack(x, [2, 5, 3], enforce_sorted=False),)),
}
