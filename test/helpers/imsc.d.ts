// imscJS (npm `imsc`, Sandflow's IMSC 1.1 reference renderer) ships no types: what the TTML
// checks use of it. Its parser and its ISD builder are loaded on their own: the package's main
// module also loads its HTML renderer, which needs a browser.
declare module 'imsc/src/main/js/doc' {
  import type { ErrorHandler, ImscDocument } from 'imsc-types';
  export function fromXML(xml: string, errorHandler?: ErrorHandler, metadataHandler?: unknown): ImscDocument | null;
}
declare module 'imsc/src/main/js/isd' {
  import type { ErrorHandler, ImscDocument, IsdElement } from 'imsc-types';
  export function generateISD(doc: ImscDocument, offset: number, errorHandler?: ErrorHandler): IsdElement;
}
declare module 'imsc-types' {
  export interface ErrorHandler {
    info(message: string): boolean | void;
    warn(message: string): boolean | void;
    error(message: string): boolean | void;
    fatal(message: string): boolean | void;
  }
  export interface ImscDocument {
    getMediaTimeEvents(): number[];
  }
  export interface IsdElement {
    kind?: string;
    text?: string;
    contents?: IsdElement[];
  }
}
