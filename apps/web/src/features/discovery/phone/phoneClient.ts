import { lanDiscoveryPlugin, nativePlatform } from '../../../shared/native';
import { createPhoneDiscovery, pluginLoader } from '../phoneDiscovery';

/** The app's one phone discovery: the `LanDiscovery` plugin, or a browser test's injected transport. */
export const phone = createPhoneDiscovery(pluginLoader(lanDiscoveryPlugin), nativePlatform);
