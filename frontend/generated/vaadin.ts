import './vaadin-featureflags.js';

import './index';

import './vaadin-react.js';