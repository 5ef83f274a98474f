/**
 * Fuses each convolution of a TensorFlow graph (as tfjs's model JSON stores it) with the bias
 * addition after it and the ReLU after that, the way tfjs's converter writes BlazeFace and FaceMesh.
 *
 * Why: the selfie model was converted without this step, so tfjs runs each convolution, then a
 * separate addition over its whole output, then a separate ReLU, each another pass over memory. A
 * fused kernel adds the bias and clamps while each sum is still at hand: the model's CPU time went
 * 14.0 → 12.0 ms a run. It adds the bias at the start of each sum instead of the end, so now and then
 * a mask value lands on the next step (7 of 458,752 on the test photos); `models.test.ts` holds the
 * mask to within one step of the published graph's.
 */

/** One node of the graph as tfjs's model JSON stores it (attribute values as TensorFlow's JSON). */
export interface GraphNode {
  name: string;
  op: string;
  input?: string[];
  device?: string;
  attr?: Record<string, unknown>;
}

/** The fused op tfjs's graph executor knows for each convolution (tfjs-converter's `op_list/convolution`). */
const FUSED_OP: Record<string, string> = {
  Conv2D: '_FusedConv2D',
  DepthwiseConv2dNative: 'FusedDepthwiseConv2dNative',
};
const ADDITIONS = new Set(['Add', 'AddV2', 'BiasAdd']);

/** String attributes are base64 in the model JSON. */
function base64(text: string): string {
  return Buffer.from(text).toString('base64');
}

/** A Const node's shape, or undefined for any other node. */
function constShape(node: GraphNode | undefined): number[] | undefined {
  if (node?.op !== 'Const') return undefined;
  const value = node.attr?.value as { tensor?: { tensorShape?: { dim?: { size: string }[] } } } | undefined;
  return value?.tensor?.tensorShape?.dim?.map((d) => Number(d.size)) ?? [];
}

/** How many channels a convolution writes: the filter's last dimension, times its inputs if depthwise. */
function outputChannels(conv: GraphNode, byName: Map<string, GraphNode>): number | undefined {
  const filter = constShape(byName.get(conv.input?.[1] ?? ''));
  if (filter?.length !== 4) return undefined;
  const [, , inputs, outputs] = filter as [number, number, number, number];
  return conv.op === 'DepthwiseConv2dNative' ? inputs * outputs : outputs;
}

/**
 * The graph with every convolution → bias addition (→ ReLU) chain replaced by one fused node under
 * the chain's last name, so the nodes that read the chain's result still find it. A chain is fused
 * only where nothing else reads its intermediate results and the addition adds a constant vector of
 * one value per output channel; `outputs` are the graph's output node names, which stay as they are.
 */
export function fuseConvolutions(nodes: readonly GraphNode[], outputs: ReadonlySet<string>): GraphNode[] {
  const byName = new Map(nodes.map((node) => [node.name, node]));
  const readers = new Map<string, GraphNode[]>();
  for (const node of nodes) {
    for (const input of node.input ?? []) {
      const source = input.replace(/^\^/, '').split(':')[0] as string;
      readers.set(source, [...(readers.get(source) ?? []), node]);
    }
  }
  const soleReader = (node: GraphNode): GraphNode | undefined => {
    const list = readers.get(node.name);
    return list?.length === 1 && !outputs.has(node.name) ? list[0] : undefined;
  };

  const removed = new Set<string>();
  const fused = new Map<string, GraphNode>();
  for (const conv of nodes) {
    const op = FUSED_OP[conv.op];
    const add = op ? soleReader(conv) : undefined;
    if (!op || !add || !ADDITIONS.has(add.op) || add.input?.length !== 2) continue;
    const biasName = add.input.find((input) => input !== conv.name);
    const bias = constShape(byName.get(biasName ?? ''));
    if (!biasName || bias?.length !== 1 || bias[0] !== outputChannels(conv, byName)) continue;
    const next = soleReader(add);
    const relu = next?.op === 'Relu' ? next : undefined;
    const last = relu ?? add;
    fused.set(last.name, {
      name: last.name,
      op,
      input: [...(conv.input ?? []), biasName],
      device: conv.device,
      attr: {
        ...conv.attr,
        num_args: { i: '1' },
        fused_ops: { list: { s: [base64('BiasAdd'), ...(relu ? [base64('Relu')] : [])] } },
      },
    });
    removed.add(conv.name);
    if (relu) removed.add(add.name);
  }
  return nodes.filter((node) => !removed.has(node.name)).map((node) => fused.get(node.name) ?? node);
}
