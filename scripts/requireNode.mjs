// Imported first by every entry script, so a Node too old stops before anything else loads (D200).
import { requireSupportedNode } from './nodeVersion.mjs';

requireSupportedNode();
