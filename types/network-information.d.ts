// Network Information API (Chromium only), which no TypeScript lib describes yet: what
// boot-snapshot.js asks before the snapshot's large download. For `tsc --checkJs` only.

interface NetworkInformation {
  readonly saveData?: boolean;
  readonly effectiveType?: string;
}

interface Navigator {
  readonly connection?: NetworkInformation;
}

interface WorkerNavigator {
  readonly connection?: NetworkInformation;
}
