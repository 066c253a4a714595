/** Mutable per-span state shared by the recording steps of one wrapped call. */
export interface SpanState {
  /** Set when any captured value on the span was capped. */
  truncated: boolean;
}

/** One entry of the `gen_ai.retrieval.documents` JSON array. */
export interface DocumentEntry {
  id: string;
  document_id?: string;
  score?: number;
  content?: string;
}

/** One text part of a GenAI message (`{type: "text", content}`). */
interface TextPart {
  type: "text";
  content: string;
}

/** One entry of the `gen_ai.input.messages` JSON array. */
export interface InputMessageEntry {
  role: string;
  parts: TextPart[];
}

/** One entry of the `gen_ai.output.messages` JSON array. */
export interface OutputMessageEntry {
  role: "assistant";
  parts: TextPart[];
  finish_reason: string;
}
