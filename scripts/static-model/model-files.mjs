// The JSON files beside the ONNX graph that make the folder a transformers.js model.

export const PAD_TOKEN = '[PAD]';
export const UNK_TOKEN = '[UNK]';
export const PAD_ID = 0;
export const UNK_ID = 1;

/**
 * tokenizer.json in the Hugging Face `tokenizers` format: a WordLevel model (transformers.js has no
 * WordLevel class; a vocab object without merges or subword prefix falls back to its plain
 * word-to-id lookup, unknown words -> unk_token of tokenizer_config.json), a Lowercase normalizer and
 * the BERT pre-tokenizer (split on whitespace and on every punctuation character).
 * @param {string[]} words  vocabulary in id order, starting at id 2 (0 and 1 are [PAD] and [UNK])
 */
export function tokenizerJson(words) {
  const vocab = { [PAD_TOKEN]: PAD_ID, [UNK_TOKEN]: UNK_ID };
  words.forEach((word, i) => {
    vocab[word] = i + 2;
  });
  const special = (id, content) => ({
    id,
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [special(PAD_ID, PAD_TOKEN), special(UNK_ID, UNK_TOKEN)],
    normalizer: { type: 'Lowercase' },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: null,
    decoder: null,
    model: { type: 'WordLevel', vocab, unk_token: UNK_TOKEN },
  };
}

/** No model_max_length: a static model has no position limit (transformers.js then uses Infinity). */
export function tokenizerConfigJson() {
  return {
    tokenizer_class: 'PreTrainedTokenizer',
    unk_token: UNK_TOKEN,
    pad_token: PAD_TOKEN,
    padding_side: 'right',
    do_lower_case: true,
    clean_up_tokenization_spaces: false,
  };
}

/**
 * config.json: model_type "bert" makes transformers.js' AutoModel build a plain encoder session whose
 * output `last_hidden_state` the feature-extraction pipeline mean-pools. `transformers.js_config.dtype`
 * makes every device load onnx/model_quantized.onnx (the only graph shipped) when the caller gives no
 * dtype; without it WebGPU and Node's cpu would ask for onnx/model.onnx (fp32) and fail.
 */
export function modelConfigJson({ dim, vocabSize, build }) {
  return {
    architectures: ['BertModel'],
    model_type: 'bert',
    hidden_size: dim,
    vocab_size: vocabSize,
    pad_token_id: PAD_ID,
    'transformers.js_config': { dtype: 'q8' },
    chunkscope_static_model: build,
  };
}
