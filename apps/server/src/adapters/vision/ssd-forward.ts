/**
 * face-api's SSD MobileNet v1 forward pass (src/ssdMobilenetv1/*.ts of @vladmandic/face-api, MIT), with one
 * change: each backbone layer's output is freed as soon as the next one exists. The original runs the 27
 * backbone layers inside one `tf.tidy`, so every activation lives until the end: about 100 MB at its fixed
 * 512×512 input, and the WASM heap never shrinks once grown. Same weights, same arithmetic, same outputs;
 * installed over the loaded network's `forwardInput`, so face-api's detection, landmark and descriptor
 * pipeline around it is unchanged.
 */
import type * as Tf from '@tensorflow/tfjs-core';

interface PointwiseConvParams {
  filters: Tf.Tensor4D;
  batch_norm_offset: Tf.Tensor1D;
}
interface DepthwiseConvParams {
  filters: Tf.Tensor4D;
  batch_norm_scale: Tf.Tensor1D;
  batch_norm_offset: Tf.Tensor1D;
  batch_norm_mean: Tf.Tensor1D;
  batch_norm_variance: Tf.Tensor1D;
}
interface ConvParams {
  filters: Tf.Tensor4D;
  bias: Tf.Tensor1D;
}
interface BoxPredictionParams {
  box_encoding_predictor: ConvParams;
  class_predictor: ConvParams;
}
type Indexed<T> = Record<string, T | undefined>;
interface SsdParams {
  mobilenetv1: Indexed<PointwiseConvParams> &
    Indexed<{ depthwise_conv: DepthwiseConvParams; pointwise_conv: PointwiseConvParams }>;
  prediction_layer: Indexed<PointwiseConvParams> & Indexed<BoxPredictionParams>;
  output_layer: { extra_dim: Tf.Tensor3D };
}

/** What face-api hands `forwardInput`: its NetInput, which resizes and pads the image to a square batch. */
interface NetInput {
  toBatchTensor(inputSize: number, isCenterInputs?: boolean): Tf.Tensor4D;
}
interface SsdNet {
  params: unknown;
  forwardInput(input: NetInput): { boxes: Tf.Tensor2D[]; scores: Tf.Tensor1D[] };
}

const EPSILON = 0.0010000000474974513;
const INPUT_SIZE = 512;

function need<T>(value: T | undefined, name: string): T {
  if (value === undefined) throw new Error(`SSD MobileNet v1 weights have no ${name}`);
  return value;
}

export function installLowMemorySsd(tf: typeof Tf, net: SsdNet): void {
  const pointwise = (x: Tf.Tensor4D, p: PointwiseConvParams, strides: [number, number]) =>
    tf.tidy(() =>
      tf.clipByValue(
        tf.add<Tf.Tensor4D>(tf.conv2d(x, p.filters, strides, 'same'), p.batch_norm_offset),
        0,
        6,
      ),
    );

  const depthwise = (x: Tf.Tensor4D, p: DepthwiseConvParams, strides: [number, number]) =>
    tf.tidy(() =>
      tf.clipByValue(
        tf.batchNorm(
          tf.depthwiseConv2d(x, p.filters, strides, 'same'),
          p.batch_norm_mean,
          p.batch_norm_variance,
          p.batch_norm_offset,
          p.batch_norm_scale,
          EPSILON,
        ),
        0,
        6,
      ),
    );

  const conv = (x: Tf.Tensor4D, p: ConvParams) =>
    tf.add<Tf.Tensor4D>(tf.conv2d(x, p.filters, [1, 1], 'same'), p.bias);

  const boxPrediction = (x: Tf.Tensor4D, p: BoxPredictionParams) => {
    const batch = need(x.shape[0], 'batch');
    return {
      box: tf.reshape(conv(x, p.box_encoding_predictor), [batch, -1, 1, 4]),
      cls: tf.reshape(conv(x, p.class_predictor), [batch, -1, 3]),
    };
  };

  /** The backbone, one layer at a time, keeping only the running output and layer 11's. */
  function backbone(x: Tf.Tensor4D, params: SsdParams['mobilenetv1']) {
    let out = pointwise(x, need(params.conv_0 as PointwiseConvParams | undefined, 'conv_0'), [2, 2]);
    let conv11: Tf.Tensor4D | undefined;
    for (let layer = 1; layer <= 13; layer++) {
      const pair = need(
        params[`conv_${layer}`] as {
          depthwise_conv: DepthwiseConvParams;
          pointwise_conv: PointwiseConvParams;
        },
        `conv_${layer}`,
      );
      const strides: [number, number] = [2, 4, 6, 12].includes(layer) ? [2, 2] : [1, 1];
      const dw = depthwise(out, pair.depthwise_conv, strides);
      if (out !== conv11) out.dispose();
      out = pointwise(dw, pair.pointwise_conv, [1, 1]);
      dw.dispose();
      if (layer === 11) conv11 = out;
    }
    return { out, conv11: need(conv11, 'layer 11') };
  }

  function decodeBoxes(anchors: Tf.Tensor2D, encoded: Tf.Tensor2D): Tf.Tensor2D {
    const a = tf.unstack(tf.transpose(anchors, [1, 0]));
    const sizes = [tf.sub(a[2]!, a[0]!), tf.sub(a[3]!, a[1]!)] as const;
    const centers = [tf.add(a[0]!, tf.div(sizes[0], 2)), tf.add(a[1]!, tf.div(sizes[1], 2))] as const;
    const e = tf.unstack(tf.transpose(encoded, [1, 0]));
    const halfH = tf.div(tf.mul(tf.exp(tf.div(e[2]!, 5)), sizes[0]), 2);
    const centreY = tf.add(tf.mul(tf.div(e[0]!, 10), sizes[0]), centers[0]);
    const halfW = tf.div(tf.mul(tf.exp(tf.div(e[3]!, 5)), sizes[1]), 2);
    const centreX = tf.add(tf.mul(tf.div(e[1]!, 10), sizes[1]), centers[1]);
    return tf.transpose(
      tf.stack([
        tf.sub(centreY, halfH),
        tf.sub(centreX, halfW),
        tf.add(centreY, halfH),
        tf.add(centreX, halfW),
      ]) as Tf.Tensor2D,
      [1, 0],
    );
  }

  function forward(input: NetInput) {
    const params = net.params as SsdParams;
    const x = tf.tidy(() => {
      const batch = tf.cast(input.toBatchTensor(INPUT_SIZE, false), 'float32');
      return tf.sub<Tf.Tensor4D>(tf.div(batch, 127.5), 1);
    });
    const features = backbone(x, params.mobilenetv1);
    x.dispose();
    try {
      return tf.tidy(() => {
        const p = params.prediction_layer;
        const pw = (name: string) => need(p[name] as PointwiseConvParams | undefined, name);
        const bp = (name: string) => need(p[name] as BoxPredictionParams | undefined, name);
        const c0 = pointwise(features.out, pw('conv_0'), [1, 1]);
        const c1 = pointwise(c0, pw('conv_1'), [2, 2]);
        const c2 = pointwise(c1, pw('conv_2'), [1, 1]);
        const c3 = pointwise(c2, pw('conv_3'), [2, 2]);
        const c4 = pointwise(c3, pw('conv_4'), [1, 1]);
        const c5 = pointwise(c4, pw('conv_5'), [2, 2]);
        const c6 = pointwise(c5, pw('conv_6'), [1, 1]);
        const c7 = pointwise(c6, pw('conv_7'), [2, 2]);
        const predictions = [
          boxPrediction(features.conv11, bp('box_predictor_0')),
          boxPrediction(features.out, bp('box_predictor_1')),
          boxPrediction(c1, bp('box_predictor_2')),
          boxPrediction(c3, bp('box_predictor_3')),
          boxPrediction(c5, bp('box_predictor_4')),
          boxPrediction(c7, bp('box_predictor_5')),
        ];
        const boxPredictions = tf.concat(
          predictions.map((b) => b.box),
          1,
        );
        const classPredictions = tf.concat(
          predictions.map((b) => b.cls),
          1,
        );
        const batch = need(boxPredictions.shape[0], 'batch');
        const anchors = tf.reshape<Tf.Rank.R2>(
          tf.tile(params.output_layer.extra_dim, [batch, 1, 1]),
          [-1, 4],
        );
        let boxes: Tf.Tensor = decodeBoxes(anchors, tf.reshape(boxPredictions, [-1, 4]));
        boxes = tf.reshape(boxes, [batch, need(boxes.shape[0], 'boxes') / batch, 4]);
        const scoresAndClasses = tf.sigmoid(tf.slice(classPredictions, [0, 0, 1], [-1, -1, -1]));
        const scores = tf.slice(scoresAndClasses, [0, 0, 0], [-1, -1, 1]);
        return {
          boxes: tf.unstack(boxes) as Tf.Tensor2D[],
          scores: tf.unstack(tf.reshape(scores, [batch, need(scores.shape[1], 'scores')])) as Tf.Tensor1D[],
        };
      });
    } finally {
      features.out.dispose();
      features.conv11.dispose();
    }
  }

  net.forwardInput = forward;
}
